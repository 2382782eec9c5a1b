#include "http_client.h"

#include <curl/curl.h>
#include <dlfcn.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <type_traits>

#include "fleet_error.h"

namespace tokenscope::fleet {
namespace {

// A Prometheus answer beyond this is a runaway query, not a matrix to draw.
constexpr std::size_t kMaxBody = std::size_t{1} << 30;

// libcurl, opened on the first HTTP request rather than linked: its closure (OpenSSL,
// GnuTLS, Kerberos, LDAP, SSH...) was two thirds of the symbols the dynamic loader bound
// at every tokenscope-cli start, for the one command (and GUI tab) that fetches.
struct Curl {
    decltype(&::curl_easy_init) easy_init;
    decltype(&::curl_easy_cleanup) easy_cleanup;
    decltype(&::curl_easy_setopt) easy_setopt;
    decltype(&::curl_easy_getinfo) easy_getinfo;
    decltype(&::curl_easy_perform) easy_perform;
    decltype(&::curl_easy_strerror) easy_strerror;
    decltype(&::curl_easy_escape) easy_escape;
    decltype(&::curl_free) free;
    decltype(&::curl_slist_append) slist_append;
    decltype(&::curl_slist_free_all) slist_free_all;
};

std::optional<Curl> load_curl(std::string& error) {
    // Never closed: curl_global_init's state lives to the end of the process.
    void* lib = ::dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return error = ::dlerror(), std::nullopt;
    Curl c{};
    auto bind = [&](auto& fn, const char* name) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(lib, name));
        if (fn == nullptr && error.empty()) error = std::string("no ") + name;
    };
    decltype(&::curl_global_init) global_init = nullptr;
    bind(global_init, "curl_global_init");
    bind(c.easy_init, "curl_easy_init");
    bind(c.easy_cleanup, "curl_easy_cleanup");
    bind(c.easy_setopt, "curl_easy_setopt");
    bind(c.easy_getinfo, "curl_easy_getinfo");
    bind(c.easy_perform, "curl_easy_perform");
    bind(c.easy_strerror, "curl_easy_strerror");
    bind(c.easy_escape, "curl_easy_escape");
    bind(c.free, "curl_free");
    bind(c.slist_append, "curl_slist_append");
    bind(c.slist_free_all, "curl_slist_free_all");
    if (!error.empty()) return std::nullopt;
    global_init(CURL_GLOBAL_DEFAULT);
    return c;
}

// libcurl's functions, loaded once (thread-safe: a static's initialisation); a
// FleetError naming `subject` where libcurl cannot be loaded.
const Curl& curl(const std::string& subject) {
    static std::string error;
    static const std::optional<Curl> api = load_curl(error);
    if (!api)
        throw FleetError(subject, "HTTP needs libcurl.so.4, which cannot be loaded: " + error);
    return *api;
}

struct Transfer {
    std::string* body;
    const trace::StopToken* stop;
    const trace::ProgressFn* progress;
    bool too_large = false;
    bool cancelled = false;
    std::chrono::steady_clock::time_point last_report{};
};

std::size_t on_data(char* data, std::size_t size, std::size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    if (t->body->size() + size * n > kMaxBody) {
        t->too_large = true;
        return 0;
    }
    t->body->append(data, size * n);
    return size * n;
}

int on_progress(void* user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t, curl_off_t) {
    auto* t = static_cast<Transfer*>(user);
    if (t->stop->stop_requested()) return t->cancelled = true, 1;
    // curl calls back per chunk received; the user's callback ten times a second is enough.
    const auto now = std::chrono::steady_clock::now();
    if (!*t->progress || now - t->last_report < std::chrono::milliseconds(100)) return 0;
    t->last_report = now;
    if (!(*t->progress)(dlnow, dltotal > 0 ? dltotal : -1)) return t->cancelled = true, 1;
    return 0;
}

std::string seconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", s);
    return buf;
}

// The problem in words, for the codes a user can act on; curl's own text otherwise.
std::string describe(CURLcode code, const char* detail, long os_errno, const HttpRequest& r) {
    const std::string text = detail[0] ? detail : curl(r.url).easy_strerror(code);
    switch (code) {
        case CURLE_COULDNT_CONNECT:
            return std::string(os_errno == ECONNREFUSED ? "connection refused" : "cannot connect") +
                   " (" + text + ")";
        case CURLE_COULDNT_RESOLVE_HOST:
            return "host not found (" + text + ")";
        case CURLE_OPERATION_TIMEDOUT:
            return "timed out: no complete answer within " + seconds(r.timeout_s) + " (" + text +
                   ")";
        case CURLE_PEER_FAILED_VERIFICATION:
            return "TLS certificate not trusted (" + text + ")" +
                   (r.ca_file.empty() ? "; pass the server's CA with --ca-file" : "");
        case CURLE_SSL_CONNECT_ERROR:
            return "TLS handshake failed (" + text + ")";
        case CURLE_SSL_CACERT_BADFILE:
            return "cannot use the CA file '" + r.ca_file + "' (" + text + ")";
        case CURLE_UNSUPPORTED_PROTOCOL:
        case CURLE_URL_MALFORMAT:
            return "not an http:// or https:// URL (" + text + ")";
        case CURLE_GOT_NOTHING:
            return "the server closed the connection without an answer (is it HTTPS?)";
        default:
            return text;
    }
}

// Only made once curl() loaded libcurl.
struct CurlFree {
    void operator()(CURL* c) const { curl({}).easy_cleanup(c); }
    void operator()(curl_slist* l) const { curl({}).slist_free_all(l); }
};

void set_auth(const Curl& api, CURL* c, const HttpRequest& r,
              std::unique_ptr<curl_slist, CurlFree>& headers) {
    if (!r.bearer_token.empty()) {
        const std::string h = "Authorization: Bearer " + r.bearer_token;
        headers.reset(api.slist_append(headers.release(), h.c_str()));
    }
    if (!r.user.empty()) {
        api.easy_setopt(c, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
        api.easy_setopt(c, CURLOPT_USERNAME, r.user.c_str());
        api.easy_setopt(c, CURLOPT_PASSWORD, r.password.c_str());
    }
    if (!r.ca_file.empty()) api.easy_setopt(c, CURLOPT_CAINFO, r.ca_file.c_str());
}

}  // namespace

std::string url_encode(const std::string& text) {
    const Curl& api = curl(text);
    std::unique_ptr<CURL, CurlFree> c(api.easy_init());
    char* out = api.easy_escape(c.get(), text.data(), static_cast<int>(text.size()));
    std::string result = out ? out : "";
    api.free(out);
    return result;
}

HttpResponse http_fetch(const HttpRequest& r, const trace::StopToken& stop,
                        const trace::ProgressFn& progress) {
    const Curl& api = curl(r.url);
    std::unique_ptr<CURL, CurlFree> handle(api.easy_init());
    if (!handle) throw FleetError(r.url, "cannot start an HTTP client (curl_easy_init)");
    CURL* c = handle.get();
    HttpResponse out;
    Transfer t{&out.body, &stop, &progress};
    char detail[CURL_ERROR_SIZE] = {0};
    std::unique_ptr<curl_slist, CurlFree> headers(
        api.slist_append(nullptr, "Accept: application/json"));
    api.easy_setopt(c, CURLOPT_URL, r.url.c_str());
    api.easy_setopt(c, CURLOPT_ERRORBUFFER, detail);
    api.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    api.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    api.easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
    api.easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    api.easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(r.timeout_s * 1000));
    api.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(r.connect_timeout_s * 1000));
    api.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
    api.easy_setopt(c, CURLOPT_WRITEDATA, &t);
    api.easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    api.easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
    api.easy_setopt(c, CURLOPT_XFERINFODATA, &t);
    if (!r.form_body.empty()) {
        api.easy_setopt(c, CURLOPT_POSTFIELDS, r.form_body.c_str());
        api.easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
                        static_cast<curl_off_t>(r.form_body.size()));
    }
    set_auth(api, c, r, headers);
    api.easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
    const CURLcode code = api.easy_perform(c);
    if (t.cancelled) throw trace::Cancelled();
    if (t.too_large)
        throw FleetError(r.url, "answer larger than " + std::to_string(kMaxBody >> 20) + " MiB");
    if (code != CURLE_OK) {
        long os_errno = 0;
        api.easy_getinfo(c, CURLINFO_OS_ERRNO, &os_errno);
        throw FleetError(r.url, describe(code, detail, os_errno, r));
    }
    api.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out.status);
    char* type = nullptr;
    api.easy_getinfo(c, CURLINFO_CONTENT_TYPE, &type);
    if (type) out.content_type = type;
    return out;
}

}  // namespace tokenscope::fleet
