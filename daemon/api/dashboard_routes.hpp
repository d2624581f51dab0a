#pragma once
// The dashboard (api/dashboard_pages.hpp) as extra routes for the Router: GET /, /scans,
// /scans/{id}, /scans/{id}/test?name=T, /suspects[?window=N], /quarantine. Pages are
// text/html with the same Content-Security-Policy as their <meta> (no fetch; the live page
// may run its inline script and open its event stream), never framed, never cached. The
// server's rules hold as for the API: loopback unless a token is set, and the token on
// every request (api/auth.hpp: a browser sends it as a Basic password).
#include <vector>

#include "api/router.hpp"
#include "store/store.hpp"

namespace flakescan::api {

std::vector<ExtraRoute> dashboard_routes(scan::ScanManager& scans, store::Store& store);

}  // namespace flakescan::api
