# Varnish in front of vmarket (README "Running at scale"; issue 32).
#
# - Caches what the nodes say a shared cache may keep: answers with `Cache-Control: public,
#   s-maxage=…` (anonymous public pages and lists). Everything else is `private, no-store` and
#   is never stored.
# - Passes every request that carries a credential or a choice: `Authorization`, the sign-in
#   cookie (`vmarket_token`) or the manual-locale cookie (`VUEI18N_MANUAL_LOCALE`, which can
#   redirect). Other cookies (the `i18n_redirected` memo, form and sign-in state, analytics) do
#   not split the cache and are passed on to the node on a miss.
# - Serves stale while revalidating (grace = the answer's `stale-while-revalidate`), and keeps
#   serving stale copies for a while when every node is down.
# - Two or more nodes behind a round-robin director with health checks (`/_ah/warmup`, which answers once the database does); a
#   `GET` whose node fails (refused, reset, a 5xx) is retried once on the next node.
# - `PURGE` with `xkey-purge: key …` (from `cache_purge_urls`, local addresses only) drops every
#   copy tagged with one of the keys (`vm`, `dv-<data version>`, `event-<permalink>`).
#
# The backends are written by `scripts/cluster` (it replaces the BACKENDS block); by hand, list
# your nodes there and in `vcl_init`.

vcl 4.1;

import directors;
import std;
import xkey;

# BACKENDS BEGIN
backend node1 {
    .host = "127.0.0.1";
    .port = "8001";
    .probe = {
        .url = "/_ah/warmup";
        .interval = 1s;
        .timeout = 2s;
        .window = 3;
        .threshold = 2;
    }
    .connect_timeout = 1s;
    .first_byte_timeout = 30s;
}

sub vcl_init {
    new nodes = directors.round_robin();
    nodes.add_backend(node1);
}

# A retry goes to the node after the one that failed (with one node: to it again).
sub retry_elsewhere {
}
# BACKENDS END

acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    set req.backend_hint = nodes.backend();

    if (req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (!req.http.xkey-purge) {
            return (synth(400, "xkey-purge missing"));
        }
        set req.http.n-gone = xkey.purge(req.http.xkey-purge);
        return (synth(200, "Invalidated " + req.http.n-gone + " objects"));
    }

    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    if (req.http.Authorization) {
        return (pass);
    }
    if (req.http.Cookie ~ "(^|;\s*)(vmarket_token|VUEI18N_MANUAL_LOCALE)=") {
        return (pass);
    }
    # Other cookies change nothing a node marks shareable (it marks an answer public only when
    # the request had no credential and the answer sets no cookie), so a cached copy may answer a
    # request that carries them. They still reach the node on a miss: the routes that read them
    # (the sign-in callback's state, form tokens) answer `private, no-store`, never stored.
    return (hash);
}

sub vcl_backend_fetch {
    if (bereq.retries > 0) {
        call retry_elsewhere;
        unset bereq.http.x-failed-backend;
    }
}

sub vcl_backend_response {
    if (beresp.status >= 500 && bereq.retries < 1 && (bereq.method == "GET" || bereq.method == "HEAD")) {
        set bereq.http.x-failed-backend = beresp.backend.name;
        return (retry);
    }
    # Only what the node marked shareable is stored.
    if (beresp.http.Cache-Control !~ "(^|[ ,])public([ ,]|$)" || beresp.http.Set-Cookie) {
        # Remembered as "not from the cache" for a little while, so that concurrent requests for
        # it go to the nodes side by side instead of queueing for one answer.
        set beresp.uncacheable = true;
        set beresp.ttl = 10s;
        set beresp.grace = 0s;
        return (deliver);
    }
    # s-maxage is Varnish's TTL already; grace from stale-while-revalidate.
    if (beresp.http.Cache-Control ~ "stale-while-revalidate=[0-9]+") {
        set beresp.grace = std.duration(regsub(beresp.http.Cache-Control, ".*stale-while-revalidate=([0-9]+).*", "\1") + "s", 0s);
    }
    # While every node is down, a stale copy is better than an error.
    set beresp.keep = 1h;
    return (deliver);
}

sub vcl_backend_error {
    # The node could not be reached at all (a connection refused or reset): another one may be.
    if (bereq.retries < 1 && (bereq.method == "GET" || bereq.method == "HEAD")) {
        set bereq.http.x-failed-backend = beresp.backend.name;
        return (retry);
    }
}

sub vcl_deliver {
    # Surrogate keys are for this cache only; browsers revalidate on their own max-age.
    unset resp.http.xkey;
    if (obj.hits > 0) {
        set resp.http.X-Cache = "HIT";
    } else {
        set resp.http.X-Cache = "MISS";
    }
}
