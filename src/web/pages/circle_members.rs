//! One circle's member pages (spec §2: `/mypage/circle/{id}/members`, `/preview`,
//! `/member/members`, `/member/preview`). The owner sees the members (and removes them), the
//! pending invitations (and cancels them), and finds a user by exact vmarket ID to invite — a
//! plain GET form, counted by the same per-user limit as the API. A member sees the members and
//! may leave. Both preview the circle as visitors see it. A suspended circle says so and offers
//! no change. A stranger gets 404, a member 403 on the owner's pages.

use crate::http::template::Template;
use rocket::form::Form;
use rocket::http::CookieJar;
use rocket::response::Redirect;
use rocket::{FromForm, Route, State, get, post, routes};
use sea_orm::EntityTrait;
use serde_json::{Value, json};

use crate::auth::guards::CurrentUser;
use crate::db::entities::{circle, circle_invitation};
use crate::error::{Error, Result};
use crate::http::limit::UserSearchLimiter;
use crate::http::notifier::Notifier;
use crate::model::circle::{CircleDetailView, CircleUserView, Standing};
use crate::model::circle_invitation::{CircleInvitationView, search_term, search_user};
use crate::model::pagination::PageRequest;
use crate::types::Id;
use crate::web::page::Page;
use crate::web::pages::circles::{ButtonForm, back, circle_links, notices, poster};
use crate::web::pages::mypage_nav::nav;

/// The most pending invitations the owner's page lists (the cap keeps them fewer).
const INVITATIONS_SHOWN: PageRequest = PageRequest { page: 1, limit: 100 };

/// What every page of one circle shows: the circle, its links, who is looking.
async fn circle_context(p: &Page<'_>, found: circle::Model, viewer: i32) -> Result<(CircleDetailView, Value)> {
    let cap = p.site.config.circle_member_cap;
    let view = CircleDetailView::load_one(p.db, found, viewer, cap, p.lang).await?;
    let other_name = match p.lang {
        crate::i18n::Lang::Ja => crate::i18n::Lang::En.pick(&view.name_ja, &view.name_en),
        crate::i18n::Lang::En => crate::i18n::Lang::Ja.pick(&view.name_ja, &view.name_en),
    };
    let ctx = json!({
        "nav": nav(p),
        "circle": view,
        "other_name": (other_name != view.name).then_some(other_name),
        "links": circle_links(p, &view),
        "list_href": p.href(if view.standing == Standing::Owner { "/mypage/circles" } else { "/mypage/circles/joined" }),
    });
    Ok((view, ctx))
}

/// The result of a member search on the owner's page.
async fn searched(
    p: &Page<'_>,
    limiter: &UserSearchLimiter,
    found: &circle::Model,
    viewer: i32,
    raw: &str,
) -> Result<Value> {
    if let Err(e) = limiter.check(viewer).await {
        let Error::RateLimited { retry_after } = e else { return Err(e) };
        let message = p.site.messages.tf(p.lang, "circles.search.too_many", &[("n", &retry_after.to_string())]);
        return Ok(json!({ "term": raw, "error": message }));
    }
    let term = match search_term(Some(raw)) {
        Ok(term) => term,
        Err(Error::Validation(details)) => {
            let message = details.first().map(|d| d.message(&p.site.messages, p.lang)).unwrap_or_default();
            return Ok(json!({ "term": raw, "error": message }));
        }
        Err(other) => return Err(other),
    };
    Ok(match search_user(p.db, found, &term, p.now).await? {
        None => json!({ "term": raw, "error": p.t("errors.user_not_found") }),
        Some((user, standing)) => {
            json!({ "term": raw, "user": CircleUserView::new(&user, p.lang), "standing": standing })
        }
    })
}

/// The owner's members page: members, pending invitations, and the search to invite.
#[get("/mypage/circle/<id>/members?<vmarket_id>&<done>&<error>")]
pub async fn members(
    p: Page<'_>,
    current: CurrentUser,
    limiter: &State<UserSearchLimiter>,
    id: Id,
    vmarket_id: Option<&str>,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    let found = circle::Model::for_owner(p.db, id.0, current.user.id).await?;
    let search = match vmarket_id {
        Some(raw) if !found.is_suspended => Some(searched(&p, limiter, &found, current.user.id, raw).await?),
        _ => None,
    };
    let (rows, pending) =
        circle_invitation::Model::pending_for_circle(p.db, found.id, p.now, INVITATIONS_SHOWN).await?;
    let invitations = CircleInvitationView::load(p.db, rows, p.now, p.lang).await?;
    let base = format!("/mypage/circle/{}", found.id);
    let invitation_items: Vec<Value> = invitations
        .iter()
        .map(|i| json!({ "invitation": i, "cancel_action": p.href(&format!("{base}/invitations/{}/cancel", i.id)) }))
        .collect();
    let (view, mut ctx) = circle_context(&p, found, current.user.id).await?;
    let member_items: Vec<Value> = view
        .members
        .iter()
        .map(|m| {
            let remove = (!m.is_owner).then(|| p.href(&format!("{base}/members/{}/remove", m.id)));
            json!({ "member": m, "remove_action": remove })
        })
        .collect();
    let seats = view.members.len() as u64 + pending;
    let extra = json!({
        "members": member_items,
        "invitations": invitation_items,
        "search": search,
        "search_action": p.href(&format!("{base}/members")),
        "invite_action": p.href(&format!("{base}/members/invite")),
        "seats": p.site.messages.tf(p.lang, "circles.members.seats", &[
            ("n", &view.members.len().to_string()), ("pending", &pending.to_string()), ("cap", &view.member_cap.to_string()),
        ]),
        "full": seats >= u64::from(view.member_cap),
        "notices": notices(&p, done, error),
    });
    merge(&mut ctx, extra);
    Ok(p.render("mypage/circles/members", &p.t("circles.title.members"), ctx))
}

/// A member's view of the members, with the button to leave.
#[get("/mypage/circle/<id>/member/members?<done>&<error>")]
pub async fn member_members(
    p: Page<'_>,
    current: CurrentUser,
    id: Id,
    done: Option<&str>,
    error: Option<&str>,
) -> Result<Template> {
    let (found, _) = circle::Model::for_member(p.db, id.0, current.user.id).await?;
    let leave_action = p.href(&format!("/mypage/circle/{}/member/leave", found.id));
    let (view, mut ctx) = circle_context(&p, found, current.user.id).await?;
    let member_items: Vec<Value> = view.members.iter().map(|m| json!({ "member": m })).collect();
    merge(
        &mut ctx,
        json!({
            "members": member_items,
            "leave_action": (view.standing == Standing::Member).then_some(leave_action),
            "notices": notices(&p, done, error),
        }),
    );
    Ok(p.render("mypage/circles/member_members", &p.t("circles.title.members"), ctx))
}

/// The owner's preview of how visitors see the circle.
#[get("/mypage/circle/<id>/preview")]
pub async fn preview(p: Page<'_>, current: CurrentUser, id: Id) -> Result<Template> {
    let found = circle::Model::for_owner(p.db, id.0, current.user.id).await?;
    let (_, ctx) = circle_context(&p, found, current.user.id).await?;
    Ok(p.render("mypage/circles/preview", &p.t("circles.title.preview"), ctx))
}

/// A member's preview of how visitors see the circle.
#[get("/mypage/circle/<id>/member/preview")]
pub async fn member_preview(p: Page<'_>, current: CurrentUser, id: Id) -> Result<Template> {
    let (found, _) = circle::Model::for_member(p.db, id.0, current.user.id).await?;
    let (_, ctx) = circle_context(&p, found, current.user.id).await?;
    Ok(p.render("mypage/circles/preview", &p.t("circles.title.preview"), ctx))
}

/// The invite button's form.
#[derive(FromForm)]
pub struct InviteForm {
    csrf_token: Option<String>,
    user_id: Option<String>,
}

/// Invites the user the search found.
#[post("/mypage/circle/<id>/members/invite", data = "<form>")]
pub async fn invite(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    notifier: Notifier<'_>,
    id: Id,
    form: Form<InviteForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let found = circle::Model::for_owner(p.db, id.0, user.id).await?;
    let back_to = format!("/mypage/circle/{}/members", found.id);
    let Some(invitee) = form.user_id.as_deref().and_then(|raw| Id::parse(raw.trim()).ok()) else {
        return back(&p, &back_to, Err(Error::NotFound { code: "user_not_found" }));
    };
    let cap = p.site.config.circle_member_cap;
    let outcome = circle_invitation::Model::invite(p.db, notifier.mailer, found.id, user, invitee.0, cap, p.now).await;
    let outcome = match outcome {
        Ok((_, mails)) => {
            notifier.push(mails).await;
            Ok("invited")
        }
        Err(e) => Err(e),
    };
    back(&p, &back_to, outcome)
}

/// Removes a member.
#[post("/mypage/circle/<id>/members/<member_id>/remove", data = "<form>")]
pub async fn remove(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    notifier: Notifier<'_>,
    id: Id,
    member_id: Id,
    form: Form<ButtonForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let found = circle::Model::for_owner(p.db, id.0, user.id).await?;
    let outcome = circle::Model::remove_member(p.db, notifier.mailer, found.id, user.id, member_id.0, p.now).await;
    let outcome = match outcome {
        Ok(mails) => {
            notifier.push(mails).await;
            Ok("removed")
        }
        Err(e) => Err(e),
    };
    back(&p, &format!("/mypage/circle/{}/members", found.id), outcome)
}

/// Cancels a pending invitation.
#[post("/mypage/circle/<id>/invitations/<invitation_id>/cancel", data = "<form>")]
pub async fn cancel(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    notifier: Notifier<'_>,
    id: Id,
    invitation_id: Id,
    form: Form<ButtonForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let found = circle::Model::for_owner(p.db, id.0, user.id).await?;
    let invitation = circle_invitation::Entity::find_by_id(invitation_id.0).one(p.db).await?;
    if invitation.is_none_or(|i| i.circle_id != found.id) {
        return Err(Error::not_found());
    }
    let outcome = circle_invitation::Model::cancel(p.db, notifier.mailer, invitation_id.0, user, p.now).await;
    let outcome = match outcome {
        Ok((_, mails)) => {
            notifier.push(mails).await;
            Ok("cancelled")
        }
        Err(e) => Err(e),
    };
    back(&p, &format!("/mypage/circle/{}/members", found.id), outcome)
}

/// Leaves the circle: to the joined list, or back with the reason.
#[post("/mypage/circle/<id>/member/leave", data = "<form>")]
pub async fn leave(
    p: Page<'_>,
    cookies: &CookieJar<'_>,
    notifier: Notifier<'_>,
    id: Id,
    form: Form<ButtonForm>,
) -> Result<Redirect> {
    let user = poster(&p, cookies, form.csrf_token.as_deref())?;
    let (found, _) = circle::Model::for_member(p.db, id.0, user.id).await?;
    match circle::Model::leave(p.db, notifier.mailer, found.id, user, p.now).await {
        Ok(mails) => {
            notifier.push(mails).await;
            back(&p, "/mypage/circles/joined", Ok("left"))
        }
        Err(e) => back(&p, &format!("/mypage/circle/{}/member/members", found.id), Err(e)),
    }
}

/// Adds the keys of `extra` (an object) to `ctx` (an object).
fn merge(ctx: &mut Value, extra: Value) {
    if let (Value::Object(ctx), Value::Object(extra)) = (ctx, extra) {
        ctx.extend(extra);
    }
}

/// Routes of this module.
pub fn routes() -> Vec<Route> {
    routes![members, member_members, preview, member_preview, invite, remove, cancel, leave]
}
