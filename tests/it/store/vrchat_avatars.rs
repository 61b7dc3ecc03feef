//! VRChat avatar orders and conversions (issue 31 item 4), against the fakes over real HTTP
//! (PayPal, GMO, VRChat) and the reference converter running as a client of the live server:
//! a user links their VRChat account, orders a VRChat avatar from an uploaded VRM, pays by PayPal
//! (captured once, however often the order is looked at); the reference converter converts it
//! (a normalised GLB); an upload worker — the test, speaking the converter protocol — uploads it
//! (one upload spent) and it is finished. Failures, a silent worker's lease, a worker reporting
//! on a step it lost, the owner's cancel and retry, an update paid through GMO, and twenty
//! workers racing for one upload (one gets it) each get what the status machine says.

use sea_orm::EntityTrait;
use serde_json::{Value, json};
use vmarket::cli::converter::{ConverterArgs, Done, run};
use vmarket::db::entities::{vrchat_avatar, vrchat_avatar_order};

use crate::support::actors::Actor;
use crate::support::fakes::{Fake, Kind, VRCHAT_AUTH_COOKIE, app_configured};
use crate::support::html::Doc;
use crate::support::{TestApp, at};
use crate::uploader::{avatar as vrm, one_shot};

const KEY: &str = "converter-key-Tq8mZ2vX9c";
pub(super) const HANA: &str = "usr_0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
pub(super) const AVTR: &str = "avtr_5e1c7b2a-3d4f-4e6a-9b8c-7d6e5f4a3b2c";

/// A live app with PayPal, GMO and VRChat at the fakes and converter workers admitted by [`KEY`];
/// `free` makes every order cost nothing.
pub(super) async fn app(paypal: Option<&Fake>, gmo: Option<&Fake>, vrchat: Option<&Fake>, free: bool) -> TestApp {
    let base = vrchat.map(|f| format!("{}/api/1", f.base));
    app_configured(paypal, gmo, 5_000, move |c| {
        if let Some(base) = base {
            c.vrchat_api_base = base;
            c.vrchat_auth_cookie = VRCHAT_AUTH_COOKIE.into();
        }
        c.converter_worker_key = KEY.into();
        c.job_poll_interval_ms = 50;
        if free {
            c.vrchat_avatar_price_new = 0;
            c.vrchat_avatar_price_update = 0;
        }
    })
    .await
}

/// Links `who`'s VRChat account `id` the way users do: a code in its bio on the fake.
async fn link(fake: &Fake, who: &Actor<'_>, id: &str) {
    fake.post("/_fake/users", json!({"id": id, "displayName": "Hana", "bio": ""})).await;
    let (status, begun) = who.post_json("/api/v1/store/vrchat/link", &json!({"vrchat_id": id})).await;
    assert_eq!(status, 201, "{begun}");
    let code = begun["challenge"]["code"].as_str().unwrap();
    fake.post("/_fake/users", json!({"id": id, "displayName": "Hana", "bio": code})).await;
    assert_eq!(who.post_json("/api/v1/store/vrchat/link/verify", &json!({})).await.0, 200);
}

/// Links `who` to a VRChat account without asking VRChat (for tests about something else).
pub(super) async fn linked(app: &TestApp, who: &Actor<'_>, id: &str) {
    use sea_orm::{ActiveModelTrait, Set};
    vmarket::db::entities::vrchat_account_link::ActiveModel {
        user_id: Set(who.user.id),
        vrchat_id: Set(id.into()),
        display_name: Set("Test".into()),
        user_icon: Set(String::new()),
        bio: Set(String::new()),
        linked_at: Set(app.clock.now()),
        updated_at: Set(app.clock.now()),
        ..Default::default()
    }
    .insert(&app.db)
    .await
    .unwrap();
}

/// `owner` uploads a VRM avatar; its asset id.
pub(super) async fn uploaded_avatar(owner: &Actor<'_>) -> i64 {
    let (asset, _) = one_shot(owner, "avatar", "hana.vrm", &vrm(4_000)).await;
    assert_eq!(asset["latest_version"]["upload_status"], "uploaded", "{asset}");
    asset["id"].as_i64().unwrap()
}

/// A converter worker named `name`, speaking the protocol with `key`.
struct Worker<'a> {
    app: &'a TestApp,
    name: &'a str,
    key: &'a str,
}

impl Worker<'_> {
    fn url(&self, path: &str) -> String {
        format!("{}/api/v1/store/converter{path}", self.app.origin)
    }

    async fn send(&self, req: reqwest::RequestBuilder) -> (u16, Value, Vec<u8>) {
        let res = req.bearer_auth(self.key).header("X-Converter-Worker", self.name).send().await.unwrap();
        let status = res.status().as_u16();
        let bytes = res.bytes().await.unwrap().to_vec();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null), bytes)
    }

    async fn claim(&self, stage: &str) -> (u16, Value) {
        let (s, v, _) = self.send(reqwest::Client::new().post(self.url("/jobs")).json(&json!({"stage": stage}))).await;
        (s, v)
    }

    async fn post(&self, job: &str, tail: &str, body: Value) -> (u16, Value) {
        let (s, v, _) =
            self.send(reqwest::Client::new().post(self.url(&format!("/jobs/{job}/{tail}"))).json(&body)).await;
        (s, v)
    }
}

fn job_of(v: &Value) -> String {
    v["job"].as_str().unwrap_or_else(|| panic!("a job: {v}")).to_string()
}

pub(super) async fn avatar_row(app: &TestApp) -> vrchat_avatar::Model {
    let mut all = vrchat_avatar::Entity::find().all(&app.db).await.unwrap();
    assert_eq!(all.len(), 1, "one avatar");
    all.remove(0)
}

#[rocket::async_test]
async fn an_order_paid_by_paypal_is_converted_by_the_reference_converter_and_uploaded() {
    let (Some(paypal), Some(vrchat)) = (Fake::start(Kind::PayPal), Fake::start(Kind::Vrchat)) else { return };
    let app = app(Some(&paypal), None, Some(&vrchat), false).await;
    let _workers = app.start_workers().await;
    let owner = app.user("vrca_owner").await;
    let stranger = app.user("vrca_stranger").await;
    let asset_id = uploaded_avatar(&owner).await;
    let order = json!({"purchase_type": "new", "payment_type": "paypal", "asset_id": asset_id, "avatar_name": "Hana"});

    let (status, err) = owner.post_json("/api/v1/store/vrchat/avatar_orders", &order).await;
    assert_eq!(
        (status, err["code"].as_str()),
        (409, Some("vrchat_not_linked")),
        "the avatar goes to a linked account: {err}"
    );
    link(&vrchat, &owner, HANA).await;
    let (_, list) = owner.get_json("/api/v1/store/vrchat/avatars").await;
    assert_eq!((list["offered"].as_bool(), list["prices"]["new_price"].as_i64()), (Some(true), Some(1500)), "{list}");
    assert_eq!(list["payment_types"], json!(["paypal"]), "GMO has no keys here");
    let (status, made) = owner.post_json("/api/v1/store/vrchat/avatar_orders", &order).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(
        (made["state"].as_str(), made["total_price"].as_i64(), made["uploads"].as_i64()),
        (Some("open"), Some(1500), Some(3))
    );
    let uuid = made["uuid"].as_str().unwrap().to_string();
    let (status, err) = owner.post_json("/api/v1/store/vrchat/avatar_orders", &order).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("avatar_order_open")), "one open order at a time");
    let path = format!("/api/v1/store/vrchat/avatar_orders/{uuid}");
    assert_eq!(stranger.get_json(&path).await.0, 404, "someone else's order");
    assert_eq!(stranger.post_json(&format!("{path}/pay"), &json!({})).await.0, 404);

    // Pay: PayPal's page; nothing is paid before the payer approves.
    let (status, to) = owner.post_json(&format!("{path}/pay"), &json!({})).await;
    assert_eq!(status, 200, "{to}");
    let url = to["redirect_url"].as_str().unwrap();
    assert!(url.starts_with(&format!("{}/checkoutnow?token=", paypal.base)), "{url}");
    let paypal_id = url.split("token=").nth(1).unwrap().to_string();
    let (_, again) = owner.post_json(&format!("{path}/pay"), &json!({})).await;
    assert_eq!(again["redirect_url"], to["redirect_url"], "a second click pays the same PayPal order");
    assert_eq!(owner.get_json(&path).await.1["state"], "open");
    paypal.post(&format!("/_fake/orders/{paypal_id}/approve"), json!({})).await;
    // The payer comes back (and reloads twice): captured once, one avatar.
    for _ in 0..3 {
        let (status, seen) = owner.get_json(&path).await;
        assert_eq!((status, seen["state"].as_str()), (200, Some("paid")), "{seen}");
        assert_eq!(seen["paypal_order_id"].as_str(), Some(paypal_id.as_str()));
        assert_eq!(seen["invoice_id"].as_str(), Some(uuid.as_str()));
    }
    assert_eq!(paypal.get(&format!("/_fake/orders/{paypal_id}")).await["captures"].as_i64(), Some(1));
    let row = avatar_row(&app).await;
    assert_eq!((row.status, row.remaining_uploads), (vrchat_avatar::VrcAvatarStatus::Waiting, 3));

    // Workers need the key.
    for key in ["", "wrong"] {
        let (status, err) = Worker { app: &app, name: "w", key }.claim("convert").await;
        assert_eq!((status, err["code"].as_str()), (401, Some("unauthorized")), "{key:?}");
    }
    // Nothing is converted yet: no upload step to claim.
    let uploader = Worker { app: &app, name: "uploader-1", key: KEY };
    assert_eq!(uploader.claim("upload").await.0, 204);

    // The reference converter, over HTTP like any worker: one job converted, then nothing waits.
    let args =
        ConverterArgs { api: app.origin.clone(), key: KEY.into(), name: "reference".into(), once: true, poll_secs: 1 };
    let done = run(&args).await.expect("the reference converter runs");
    assert_eq!(done.len(), 1, "{done:?}");
    let Done::Converted(size) = done[0].1.clone() else { panic!("{done:?}") };
    let row = avatar_row(&app).await;
    assert_eq!(row.status, vrchat_avatar::VrcAvatarStatus::Converted);
    assert_eq!((row.result_bytes, row.progress), (Some(size as i64), 100));

    // The upload step: one upload spent; the worker gets the owner's VRChat account and the file.
    let (status, job) = uploader.claim("upload").await;
    assert_eq!(status, 200, "{job}");
    assert_eq!((job["stage"].as_str(), job["vrchat_user_id"].as_str()), (Some("upload"), Some(HANA)));
    assert_eq!(job["avatar"]["remaining_uploads"], 2);
    let name = job_of(&job);
    let (status, _, bytes) =
        uploader.send(reqwest::Client::new().get(uploader.url(&format!("/jobs/{name}/source")))).await;
    assert_eq!((status, &bytes[..4], bytes.len()), (200, b"glTF".as_slice(), size));
    let avatar_path = format!("/api/v1/store/vrchat/avatars/{}", row.uuid);
    let (status, err) = owner.post_json(&format!("{avatar_path}/cancel"), &json!({})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("avatar_status")), "no cancel once uploading");
    let other = Worker { app: &app, name: "uploader-2", key: KEY };
    assert_eq!(other.post(&name, "uploaded", json!({"vrchat_avatar_id": AVTR})).await.0, 409, "not its job");
    let (status, err) = uploader.post(&name, "uploaded", json!({"vrchat_avatar_id": "avtr_nope"})).await;
    assert_eq!((status, err["details"][0]["attribute"].as_str()), (422, Some("vrchat_avatar_id")), "{err}");
    let (status, done) = uploader.post(&name, "uploaded", json!({"vrchat_avatar_id": AVTR})).await;
    assert_eq!(
        (status, done["status"].as_str(), done["vrchat_avatar_id"].as_str()),
        (200, Some("finished"), Some(AVTR))
    );
    assert_eq!(uploader.post(&name, "uploaded", json!({"vrchat_avatar_id": AVTR})).await.0, 409, "once");
    let (_, list) = owner.get_json("/api/v1/store/vrchat/avatars").await;
    assert_eq!(list["avatars"][0]["status"], "finished");
    assert_eq!(list["orders"][0]["vrc_avatar"].as_str(), Some(row.uuid.as_str()));
    assert_eq!(stranger.post_json(&format!("{avatar_path}/cancel"), &json!({})).await.0, 404);
}

#[rocket::async_test]
async fn failures_leases_cancels_and_an_update_paid_through_gmo_follow_the_machine() {
    let Some(gmo) = Fake::start(Kind::Gmo) else { return };
    let app = app(None, Some(&gmo), None, false).await;
    let _workers = app.start_workers().await;
    app.clock.set(at("2026-12-01T00:00:00Z"));
    let mut owner = app.user("vrca_machine").await;
    linked(&app, &owner, HANA).await;
    let asset_id = uploaded_avatar(&owner).await;
    let orders = "/api/v1/store/vrchat/avatar_orders";
    let (status, err) = owner
        .post_json(
            orders,
            &json!({"purchase_type": "new", "payment_type": "paypal", "asset_id": asset_id, "avatar_name": "A"}),
        )
        .await;
    assert_eq!(
        (status, err["details"][0]["attribute"].as_str()),
        (422, Some("payment_type")),
        "PayPal has no keys: {err}"
    );
    for (body, attribute) in [
        (json!({"purchase_type": "new", "payment_type": "gmo_payment", "asset_id": asset_id}), "avatar_name"),
        (json!({"purchase_type": "new", "payment_type": "gmo_payment", "avatar_name": "A"}), "asset_id"),
        (json!({"purchase_type": "update", "payment_type": "gmo_payment"}), "avatar_uuid"),
        (
            json!({"purchase_type": "new", "payment_type": "gmo_payment", "asset_id": asset_id, "avatar_name": "x".repeat(65)}),
            "avatar_name",
        ),
    ] {
        let (status, err) = owner.post_json(orders, &body).await;
        assert_eq!((status, err["details"][0]["attribute"].as_str()), (422, Some(attribute)), "{body}: {err}");
    }
    let (status, err) = owner.post_json(orders, &json!({"purchase_type": "gift", "payment_type": "gmo_payment"})).await;
    assert_eq!((status, err["code"].as_str()), (400, Some("bad_request")), "{err}");

    // A new avatar paid at GMO: the return (a reload) settles it once.
    let (status, made) = owner
        .post_json(
            orders,
            &json!({"purchase_type": "new", "payment_type": "gmo_payment", "asset_id": asset_id, "avatar_name": "A"}),
        )
        .await;
    assert_eq!(status, 201, "{made}");
    let path = format!("{orders}/{}", made["uuid"].as_str().unwrap());
    let (_, to) = owner.post_json(&format!("{path}/pay"), &json!({})).await;
    assert!(to["redirect_url"].as_str().unwrap().starts_with(&gmo.base), "{to}");
    let gmo_id = vmarket::payments::gmo::order_id(made["uuid"].as_str().unwrap());
    gmo.post(&format!("/_fake/trades/{gmo_id}/pay"), json!({})).await;
    let looks: Vec<_> = (0..8).map(|_| owner.get_json(&path)).collect();
    for (status, seen) in rocket::futures::future::join_all(looks).await {
        assert_eq!((status, seen["state"].as_str()), (200, Some("paid")), "{seen}");
    }
    assert_eq!(vrchat_avatar::Entity::find().all(&app.db).await.unwrap().len(), 1, "eight looks, one avatar");
    let row = avatar_row(&app).await;
    let avatar_path = format!("/api/v1/store/vrchat/avatars/{}", row.uuid);

    // A conversion fails; an update is refused while it waits, allowed after the failure.
    let worker = Worker { app: &app, name: "w1", key: KEY };
    let (_, job) = worker.claim("convert").await;
    let first = job_of(&job);
    let (status, err) = owner
        .post_json(orders, &json!({"purchase_type": "update", "payment_type": "gmo_payment", "avatar_uuid": row.uuid}))
        .await;
    assert_eq!((status, err["code"].as_str()), (409, Some("avatar_status")), "in a worker's hands: {err}");
    let (status, failed) =
        worker.post(&first, "failure", json!({"code": "shader_unsupported", "message": "MToon 0.x"})).await;
    assert_eq!(
        (status, failed["status"].as_str(), failed["failure_code"].as_str()),
        (200, Some("convert_failed"), Some("shader_unsupported"))
    );
    assert_eq!(failed["can_update"], true);
    let (status, update) = owner
        .post_json(orders, &json!({"purchase_type": "update", "payment_type": "gmo_payment", "avatar_uuid": row.uuid}))
        .await;
    assert_eq!(
        (status, update["total_price"].as_i64(), update["uploads"].as_i64()),
        (201, Some(500), Some(1)),
        "{update}"
    );
    let update_path = format!("{orders}/{}", update["uuid"].as_str().unwrap());
    owner.post_json(&format!("{update_path}/pay"), &json!({})).await;
    let update_gmo = vmarket::payments::gmo::order_id(update["uuid"].as_str().unwrap());
    gmo.post(&format!("/_fake/trades/{update_gmo}/pay"), json!({})).await;
    assert_eq!(owner.get_json(&update_path).await.1["state"], "paid");
    let row = avatar_row(&app).await;
    assert_eq!(
        (row.status, row.remaining_uploads, row.failure_code.as_deref()),
        (vrchat_avatar::VrcAvatarStatus::Waiting, 4, None)
    );

    // A silent worker loses its step after the lease; its late reports are refused.
    let (_, job) = worker.claim("convert").await;
    let silent = job_of(&job);
    let other = Worker { app: &app, name: "w2", key: KEY };
    assert_eq!(other.claim("convert").await.0, 204, "held within the lease");
    app.clock.set(at("2026-12-01T00:11:00Z"));
    let (status, job) = other.claim("convert").await;
    assert_eq!(status, 200, "taken over after the lease");
    let taken = job_of(&job);
    assert_ne!(taken, silent);
    let (status, err) = worker.post(&silent, "progress", json!({"progress": 40})).await;
    assert_eq!((status, err["code"].as_str()), (409, Some("job_not_held")), "{err}");
    assert_eq!(other.post(&taken, "progress", json!({"progress": 140})).await.0, 422);
    assert_eq!(other.post("nope.1", "progress", json!({"progress": 10})).await.0, 404);
    let glb = vmarket::store::vrchat::convert::normalise(&vrm(100)).unwrap();
    let put = |job: &str, body: Vec<u8>| {
        other.send(reqwest::Client::new().put(other.url(&format!("/jobs/{job}/result"))).body(body))
    };
    let (status, err, _) = put(&taken, b"not a glb".to_vec()).await;
    assert_eq!((status, err["details"][0]["attribute"].as_str()), (422, Some("result")), "{err}");
    let (status, converted, _) = put(&taken, glb.clone()).await;
    assert_eq!((status, converted["status"].as_str()), (200, Some("converted")), "{converted}");

    // An upload fails and gives its upload back; the owner tries again; then cancels.
    let (_, job) = other.claim("upload").await;
    assert_eq!(job["avatar"]["remaining_uploads"], 3);
    let (_, failed) = other.post(&job_of(&job), "failure", json!({"code": "vrchat_refused", "message": "rank"})).await;
    assert_eq!((failed["status"].as_str(), failed["remaining_uploads"].as_i64()), (Some("upload_failed"), Some(4)));
    assert_eq!(other.claim("upload").await.0, 204, "a failed upload waits for its owner");
    let (status, retried) = owner.post_json(&format!("{avatar_path}/retry_upload"), &json!({})).await;
    assert_eq!((status, retried["status"].as_str()), (200, Some("converted")), "{retried}");
    let (status, cancelled) = owner.post_json(&format!("{avatar_path}/cancel"), &json!({})).await;
    assert_eq!((status, cancelled["status"].as_str()), (200, Some("cancelled")));
    assert_eq!(other.claim("upload").await.0, 204, "a cancelled avatar is nobody's job");
    assert_eq!(owner.post_json(&format!("{avatar_path}/cancel"), &json!({})).await.0, 409);

    // An order left unpaid past its closing date expires; a new one may open.
    let (status, open) = owner
        .post_json(orders, &json!({"purchase_type": "update", "payment_type": "gmo_payment", "avatar_uuid": row.uuid}))
        .await;
    assert_eq!(status, 201, "a cancelled avatar may be converted again: {open}");
    let open_path = format!("{orders}/{}", open["uuid"].as_str().unwrap());
    app.clock.set(at("2026-12-09T00:00:00Z"));
    owner.renew().await;
    let (status, seen) = owner.get_json(&open_path).await;
    assert_eq!((status, seen["state"].as_str()), (200, Some("expired")), "{seen}");
    assert_eq!(owner.post_json(&format!("{open_path}/pay"), &json!({})).await.1["code"], "order_closed");
    let orders_stored = vrchat_avatar_order::Entity::find().all(&app.db).await.unwrap();
    assert_eq!(orders_stored.iter().filter(|o| o.paid_at.is_some()).count(), 2, "two orders paid");
}

#[rocket::async_test]
async fn twenty_workers_racing_for_one_upload_spend_it_once() {
    let app = app(None, None, None, true).await;
    let _workers = app.start_workers().await;
    let owner = app.user("vrca_race").await;
    linked(&app, &owner, HANA).await;
    let asset_id = uploaded_avatar(&owner).await;
    let (status, made) = owner
        .post_json(
            "/api/v1/store/vrchat/avatar_orders",
            &json!({"purchase_type": "new", "payment_type": "paypal", "asset_id": asset_id, "avatar_name": "Free"}),
        )
        .await;
    assert_eq!(
        (status, made["state"].as_str(), made["total_price"].as_i64()),
        (201, Some("paid"), Some(0)),
        "free: paid at once"
    );
    let worker = Worker { app: &app, name: "w", key: KEY };
    let (_, job) = worker.claim("convert").await;
    let glb = vmarket::store::vrchat::convert::normalise(&vrm(100)).unwrap();
    let (status, _, _) =
        worker.send(reqwest::Client::new().put(worker.url(&format!("/jobs/{}/result", job_of(&job)))).body(glb)).await;
    assert_eq!(status, 200);
    // Three uploads were bought; leave one, then twenty workers claim at once.
    {
        use sea_orm::{ActiveModelTrait, IntoActiveModel, Set};
        let mut row = avatar_row(&app).await.into_active_model();
        row.remaining_uploads = Set(1);
        row.update(&app.db).await.unwrap();
    }
    let names: Vec<String> = (0..20).map(|i| format!("racer-{i}")).collect();
    let workers: Vec<Worker<'_>> = names.iter().map(|name| Worker { app: &app, name, key: KEY }).collect();
    let claims: Vec<_> = workers.iter().map(|w| async move { w.claim("upload").await.0 }).collect();
    let statuses = rocket::futures::future::join_all(claims).await;
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "{statuses:?}");
    assert!(statuses.iter().all(|s| matches!(s, 200 | 204)), "{statuses:?}");
    let row = avatar_row(&app).await;
    assert_eq!((row.status, row.remaining_uploads), (vrchat_avatar::VrcAvatarStatus::Uploading, 0));
}

#[rocket::async_test]
async fn without_a_worker_key_orders_are_not_offered() {
    let app = TestApp::builder().live().build().await;
    let owner = app.user("vrca_off").await;
    let (_, list) = owner.get_json("/api/v1/store/vrchat/avatars").await;
    assert_eq!(list["offered"], false);
    let (status, _) = owner
        .post_json("/api/v1/store/vrchat/avatar_orders", &json!({"purchase_type": "new", "payment_type": "paypal"}))
        .await;
    assert_eq!(status, 501);
    let (status, err) = Worker { app: &app, name: "w", key: "" }.claim("convert").await;
    assert_eq!((status, err["code"].as_str()), (501, Some("not_implemented")));
}

#[rocket::async_test]
async fn the_mypage_page_orders_pays_and_comes_back_without_scripts() {
    let Some(gmo) = Fake::start(Kind::Gmo) else { return };
    let app = app(None, Some(&gmo), None, false).await;
    let _workers = app.start_workers().await;
    let owner = app.user("vrca_page").await;
    let stranger = app.user("vrca_page_stranger").await;
    let (_, html) = owner.page("/mypage/vrchat/avatars").await;
    assert_eq!(Doc::parse(&html).count("[data-testid=vrca-not-linked]"), 1, "link first");
    linked(&app, &owner, HANA).await;
    let asset_id = uploaded_avatar(&owner).await.to_string();
    let form = owner.form("/mypage/vrchat/avatars", "[data-testid=vrca-order-form] form").await;
    let (_, html) = owner.page("/mypage/vrchat/avatars").await;
    assert!(Doc::parse(&html).text("[data-testid=vrca-order-form]").contains("1,500円"), "the price, grouped");

    // No CSRF field: nothing ordered.
    let bare = crate::support::actors::Form { hidden: Vec::new(), ..form.clone() };
    let fields = [("asset_id", asset_id.as_str()), ("avatar_name", "ページ"), ("payment_type", "gmo_payment")];
    let (status, _, _) = owner.submit(&bare, &[("purchase_type", "new"), fields[0], fields[1], fields[2]], None).await;
    assert_eq!(status, 403);
    assert!(vrchat_avatar_order::Entity::find().all(&app.db).await.unwrap().is_empty());
    // Ordered and sent on to GMO's page, only there.
    let (status, location, _) = owner.submit(&form, &fields, None).await;
    let location = location.unwrap_or_default();
    assert_eq!(status, 303);
    assert!(location.starts_with(&gmo.base), "{location}");
    let order = vrchat_avatar_order::Entity::find().all(&app.db).await.unwrap().remove(0);
    // A second order while this one is open: back with why.
    let (status, location, _) = owner.submit(&form, &fields, None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/vrchat/avatars?error=avatar_order_open")));
    let (_, html) = owner.page("/en/mypage/vrchat/avatars?error=avatar_order_open").await;
    assert!(Doc::parse(&html).text("[data-testid=vrca-refused]").starts_with("You already have an unpaid order"));

    // GMO comes back by POST: on to the GET, which asks GMO; paid there, paid here.
    let gmo_id = vmarket::payments::gmo::order_id(&order.uuid);
    gmo.post(&format!("/_fake/trades/{gmo_id}/pay"), json!({})).await;
    let back = format!("/mypage/vrchat/orders/{}", order.uuid);
    let res = app.client.post(back.clone()).header(rocket::http::ContentType::Form).body("result=x").dispatch().await;
    assert_eq!((res.status().code, res.headers().get_one("Location")), (303, Some(back.as_str())));
    assert_eq!(stranger.page(&back).await.0, 404, "someone else's order");
    let res = owner.browser(app.client.get(back.clone())).dispatch().await;
    assert_eq!(res.headers().get_one("Location"), Some("/mypage/vrchat/avatars?done=paid"));
    let (_, html) = owner.page("/mypage/vrchat/avatars?done=paid").await;
    let doc = Doc::parse(&html);
    assert_eq!(doc.attr("[data-testid=vrca-avatar]", "data-status"), "waiting");
    assert_eq!(doc.text("[data-testid=vrca-status]"), "変換待ち");
    assert_eq!(doc.attr("[data-testid=vrca-order-row]", "data-state"), "paid");

    // The owner cancels it from the page; a stranger's button does nothing.
    let cancel =
        owner.form("/mypage/vrchat/avatars", "[data-testid=vrca-avatar] form:has([data-testid=vrca-cancel])").await;
    let (status, _, _) = stranger.submit(&cancel, &[], None).await;
    assert_eq!(status, 404);
    let (status, location, _) = owner.submit(&cancel, &[], None).await;
    assert_eq!((status, location.as_deref()), (303, Some("/mypage/vrchat/avatars?done=cancelled")));
}
