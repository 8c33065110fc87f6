#include "source/s3_client.hpp"

#include <curl/curl.h>
#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "source/s3_xml.hpp"
#include "util/crc32c.hpp"
#include "util/elapsed.hpp"
#include "util/text_encoding.hpp"

namespace moonquota::source {

using util::Status;

namespace {

constexpr std::uint64_t k_error_body_limit = 64 << 10;
constexpr std::uint64_t k_listing_page_limit = 16 << 20;
constexpr std::uint64_t k_backoff_base_ms = 100;
constexpr std::uint64_t k_backoff_cap_ms = 5000;
constexpr std::uint64_t k_max_parts = 10000;

using Clock = std::chrono::steady_clock;
using util::ms_since;

// SIGPIPE blocked in this thread while curl sends (a TLS write to a reset connection raises it;
// CURLOPT_NOSIGNAL leaves it to us), and any that arrived consumed before it is unblocked, so a
// reset is a retried transport error, never the death of the process.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&m_pipe);
    sigaddset(&m_pipe, SIGPIPE);
    m_was_blocked = pthread_sigmask(SIG_BLOCK, &m_pipe, &m_old) == 0 && sigismember(&m_old, SIGPIPE) == 1;
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;
  ~SigpipeBlock() {
    if (m_was_blocked) return;
    const timespec zero{0, 0};
    while (sigtimedwait(&m_pipe, nullptr, &zero) == SIGPIPE) {}
    pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
  }

 private:
  sigset_t m_pipe{};
  sigset_t m_old{};
  bool m_was_blocked = false;
};

// One easy handle per thread: curl keeps the thread's connections alive between its requests.
CURL* thread_handle() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  struct Handle {
    CURL* curl = curl_easy_init();
    Handle() = default;
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    ~Handle() {
      if (curl != nullptr) curl_easy_cleanup(curl);
    }
  };
  thread_local Handle handle;
  if (handle.curl != nullptr) curl_easy_reset(handle.curl);
  return handle.curl;
}

// A decimal header or XML value: digits only (no sign, space or '+' that strtoull would take, so
// "-1" is never read as 2^64-1), within 64 bits.
std::optional<std::uint64_t> decimal(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// One request and, after perform(), its response.
struct Exchange {
  // The request.
  std::string method = "GET";
  std::string url;
  std::vector<std::string> headers;
  std::string_view upload;           // PUT/POST body in memory
  std::FILE* upload_file = nullptr;  // or from a file, `upload_bytes` bytes from its position
  std::uint64_t upload_bytes = 0;
  bool has_body = false;
  // Where a 2xx body goes: `buffer` (exactly its size) or `text` (at most `limit`).
  util::ByteBuffer* buffer = nullptr;
  std::string* text = nullptr;
  std::uint64_t limit = 0;
  util::Crc32c* crc = nullptr;

  // The response.
  long status = 0;
  std::map<std::string, std::string> response_headers;  // lowercase names
  std::string error_body;                               // a non-2xx body (capped)
  std::uint64_t received = 0;
  std::uint64_t sent = 0;
  bool overflow = false;
  bool stalled = false;
  Clock::time_point last_progress;
  std::uint32_t stall_ms = 0;

  [[nodiscard]] bool success() const { return status >= 200 && status < 300; }
  [[nodiscard]] std::string header(const std::string& name) const {
    auto it = response_headers.find(name);
    return it == response_headers.end() ? std::string() : it->second;
  }
};

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  const std::string_view line(data, size * count);
  ex->last_progress = Clock::now();
  if (line.rfind("HTTP/", 0) == 0) {  // a status line: a new response (after 100 Continue)
    ex->response_headers.clear();
    const auto sp = line.find(' ');
    ex->status =
        sp == std::string_view::npos ? 0 : std::strtol(std::string(line.substr(sp + 1, 3)).c_str(), nullptr, 10);
    return size * count;
  }
  const auto colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  std::string value(line.substr(colon + 1));
  const auto b = value.find_first_not_of(" \t");
  const auto e = value.find_last_not_of(" \t\r\n");
  value = b == std::string::npos ? std::string() : value.substr(b, e - b + 1);
  ex->response_headers[util::ascii_lower(std::string(line.substr(0, colon)))] = value;
  return size * count;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  const std::size_t n = size * count;
  ex->last_progress = Clock::now();
  if (!ex->success() || (ex->buffer == nullptr && ex->text == nullptr)) {
    if (ex->error_body.size() < k_error_body_limit) {
      ex->error_body.append(data, std::min<std::size_t>(n, k_error_body_limit - ex->error_body.size()));
    }
    return n;
  }
  const std::uint64_t cap = ex->buffer != nullptr ? ex->buffer->size() : ex->limit;
  if (ex->received + n > cap) {
    ex->overflow = true;
    return 0;  // stops the transfer (CURLE_WRITE_ERROR)
  }
  if (ex->buffer != nullptr) {
    std::memcpy(ex->buffer->data() + ex->received, data, n);
  } else {
    ex->text->append(data, n);
  }
  if (ex->crc != nullptr) ex->crc->update({data, n});
  ex->received += n;
  return n;
}

std::size_t on_read(char* data, std::size_t size, std::size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  const std::uint64_t left = ex->upload_bytes - ex->sent;
  const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(size * count, left));
  if (want == 0) return 0;
  std::size_t got = want;
  if (ex->upload_file != nullptr) {
    got = std::fread(data, 1, want, ex->upload_file);
    if (got == 0) return CURL_READFUNC_ABORT;
  } else {
    std::memcpy(data, ex->upload.data() + ex->sent, want);
  }
  ex->sent += got;
  ex->last_progress = Clock::now();
  return got;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* ex = static_cast<Exchange*>(user);
  if (ms_since(ex->last_progress) <= ex->stall_ms) return 0;
  ex->stalled = true;
  return 1;  // CURLE_ABORTED_BY_CALLBACK
}

// The words of source/http_call for the same failures, so every service fails alike.
std::string transport_error(CURLcode code, const Exchange& ex, const S3Config& config) {
  const std::string length = ex.header("content-length");
  switch (code) {
    case CURLE_COULDNT_CONNECT: return "connection refused";
    case CURLE_COULDNT_RESOLVE_HOST: return "name not resolved";
    case CURLE_OPERATION_TIMEDOUT:
      return "connect timed out after " + std::to_string(config.connect_timeout_ms) + " ms";
    case CURLE_ABORTED_BY_CALLBACK:
      return "timed out after " + std::to_string(config.request_timeout_ms) + " ms waiting for the answer";
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
      if (ex.status != 0 && !length.empty()) {
        return "body truncated at byte " + std::to_string(ex.received) + " of " + length;
      }
      return "connection reset or closed before the answer";
    case CURLE_PEER_FAILED_VERIFICATION:
      return "the TLS certificate of the endpoint is not trusted (give its CA with --s3-ca-file or AWS_CA_BUNDLE)";
    case CURLE_SSL_CACERT_BADFILE: return "cannot read the CA file '" + config.ca_file + "'";
    case CURLE_SSL_CONNECT_ERROR: return "TLS handshake failed (is the endpoint HTTPS? see --s3-https)";
    default: return curl_easy_strerror(code);
  }
}

bool transient(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_ABORTED_BY_CALLBACK:
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return true;
    default: return false;
  }
}

// One attempt's verdict: done (ok or a final error), or a transient failure.
struct Attempt {
  Status status;
  bool transient = false;
};

}  // namespace

// The request machinery, kept out of the header.
class S3Request {
 public:
  S3Request(const S3Client& client, std::string what) : m_client(client), m_what(std::move(what)) {}

  // Runs `attempt` until it succeeds, fails for good, or the retry bound is reached.
  Status with_retries(const std::function<Attempt(std::size_t)>& attempt) {
    const S3Config& config = m_client.config();
    const auto start = Clock::now();
    const std::size_t attempts = std::max<std::uint32_t>(1, config.max_attempts);
    thread_local std::mt19937_64 rng{std::random_device{}()};
    Status last;
    for (std::size_t i = 1; i <= attempts; ++i) {
      Attempt a = attempt(i);
      if (a.status.ok() || !a.transient) return a.status;
      last = a.status;
      const std::uint64_t ceiling = std::min(k_backoff_cap_ms, k_backoff_base_ms << std::min<std::size_t>(i - 1, 16));
      std::uniform_int_distribution<std::uint64_t> jitter(ceiling / 2, ceiling);
      const std::uint64_t wait = jitter(rng);
      const bool out_of_time = ms_since(start) + wait > config.retry_budget_ms;
      const bool last_attempt = i == attempts || out_of_time;
      m_client.net().info(util::attempt_failed(m_what, i, last_attempt ? i : attempts, a.status.message(), wait));
      if (last_attempt) {
        return Status::unavailable(m_what + ": " + a.status.message() + " (after " + std::to_string(i) +
                                   (i == 1 ? " attempt" : " attempts") + " in " + std::to_string(ms_since(start)) +
                                   " ms)");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(wait));
    }
    return last;
  }

  // Performs `ex` once.
  CURLcode perform(Exchange& ex) const {
    const S3Config& config = m_client.config();
    CURL* curl = thread_handle();
    if (curl == nullptr) return CURLE_FAILED_INIT;
    curl_slist* headers = nullptr;
    for (const auto& h : ex.headers) headers = curl_slist_append(headers, h.c_str());
    headers = curl_slist_append(headers, "x-amz-content-sha256: UNSIGNED-PAYLOAD");
    headers = curl_slist_append(headers, "Expect:");
    if (!config.session_token.empty()) {
      headers = curl_slist_append(headers, ("x-amz-security-token: " + config.session_token).c_str());
    }
    const std::string sigv4 = "aws:amz:" + config.region + ":s3";
    const std::string user = config.access_key_id + ":" + config.secret_access_key;
    curl_easy_setopt(curl, CURLOPT_URL, ex.url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (!config.access_key_id.empty()) {
      curl_easy_setopt(curl, CURLOPT_AWS_SIGV4, sigv4.c_str());
      curl_easy_setopt(curl, CURLOPT_USERPWD, user.c_str());
    }
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    if (!config.ca_file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, config.ca_file.c_str());
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(config.connect_timeout_ms));
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &ex);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &ex);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &ex);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    if (ex.method == "HEAD") {
      curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (ex.has_body) {
      curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
      curl_easy_setopt(curl, CURLOPT_READFUNCTION, on_read);
      curl_easy_setopt(curl, CURLOPT_READDATA, &ex);
      curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(ex.upload_bytes));
      if (ex.method != "PUT") curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, ex.method.c_str());
    } else if (ex.method != "GET") {
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, ex.method.c_str());
    }
    ex.stall_ms = config.request_timeout_ms;
    ex.last_progress = Clock::now();
    const auto start = Clock::now();
    CURLcode code = CURLE_OK;
    {
      const SigpipeBlock no_sigpipe;
      code = curl_easy_perform(curl);
    }
    curl_slist_free_all(headers);
    m_client.net().debug(
        ex.method + " " + ex.url + " -> " +
        (code == CURLE_OK ? "HTTP " + std::to_string(ex.status) : std::string(curl_easy_strerror(code))) + ", " +
        std::to_string(ex.received) + " bytes, " + std::to_string(ms_since(start)) + " ms");
    return code;
  }

  // The verdict on a performed exchange: transport errors and retryable statuses are transient;
  // S3 error bodies are turned into messages naming the code.
  Attempt judge(CURLcode code, const Exchange& ex, const std::string& bucket) const {
    const S3Config& config = m_client.config();
    if (code == CURLE_WRITE_ERROR && ex.overflow) return {Status::limit_exceeded("overflow"), false};
    if (code != CURLE_OK) {
      Status s = Status::unavailable(transport_error(code, ex, config) + " at " + describe_endpoint(config));
      return {s, transient(code)};
    }
    if (ex.success()) return {Status{}, false};
    const std::string s3_code = xml_first(ex.error_body, "Code").value_or("");
    const std::string s3_message = xml_first(ex.error_body, "Message").value_or("");
    std::string said = "HTTP " + std::to_string(ex.status);
    if (!s3_code.empty()) said += " " + s3_code;
    if (!s3_message.empty()) said += ": " + s3_message;
    // A 404 that is not S3's (no error code, on a request that has a body to carry one): not a
    // missing object but a wrong endpoint; never read as "nothing stored here".
    if (ex.status == 404 && s3_code.empty() && ex.method != "HEAD") {
      return {Status::unavailable(said + " without an S3 error code from " + describe_endpoint(config) +
                                  ": not an S3 answer (check MOONCAKE_AWS_S3_ENDPOINT / --s3-endpoint)"),
              false};
    }
    if (ex.status == 404 || s3_code == "NoSuchKey" || s3_code == "NoSuchBucket") {
      if (s3_code == "NoSuchBucket") {
        return {Status::not_found("no bucket '" + bucket + "' at " + describe_endpoint(config)), false};
      }
      return {Status::not_found("no such object (" + said + ")"), false};
    }
    if (ex.status == 403) {
      return {Status::unavailable(said + " (at " + describe_endpoint(config) +
                                  "; check the credentials: MOONCAKE_AWS_ACCESS_KEY_ID and "
                                  "MOONCAKE_AWS_SECRET_ACCESS_KEY, or AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and "
                                  "AWS_SESSION_TOKEN; in use: " +
                                  config.credentials_from + ")"),
              false};
    }
    const bool retry = ex.status == 500 || ex.status == 502 || ex.status == 503 || ex.status == 504 ||
                       s3_code == "SlowDown" || s3_code == "RequestTimeout" || s3_code == "InternalError";
    if (s3_code.empty() && !ex.error_body.empty() && ex.error_body.find('<') == std::string::npos) {
      std::string excerpt = ex.error_body.substr(0, 60);
      std::replace_if(
          excerpt.begin(), excerpt.end(), [](unsigned char c) { return std::iscntrl(c) != 0; }, ' ');
      said += " (\"" + excerpt + (ex.error_body.size() > 60 ? "...\")" : "\")");
    }
    return {Status::unavailable(said + " (endpoint " + describe_endpoint(config) + ")"), retry};
  }

  [[nodiscard]] const std::string& what() const { return m_what; }

 private:
  const S3Client& m_client;
  std::string m_what;
};

namespace {

void fill_info(const Exchange& ex, S3ObjectInfo& info) {
  info.etag = ex.header("etag");
  const std::string crc = ex.header("x-amz-checksum-crc32c");
  if (!crc.empty()) info.crc32c = crc;
}

// Prefixes `status` with the request it belongs to.
Status named(const Status& status, const std::string& what) {
  if (status.ok()) return status;
  if (status.message().rfind(what, 0) == 0) return status;
  return Status(status.code(), what + ": " + status.message());
}

}  // namespace

S3Client::S3Client(S3Config config, util::NetConfig net) : m_config(std::move(config)), m_net(std::move(net)) {}

util::Result<S3ObjectInfo> S3Client::head(const S3Location& object) {
  S3Request request(*this, "HEAD " + s3_url(object));
  S3ObjectInfo info;
  info.key = object.key;
  Status s = request.with_retries([&](std::size_t) -> Attempt {
    Exchange ex;
    ex.method = "HEAD";
    ex.url = s3_request_url(m_config, object.bucket, object.key);
    ex.headers.push_back("x-amz-checksum-mode: ENABLED");
    const CURLcode code = request.perform(ex);
    Attempt a = request.judge(code, ex, object.bucket);
    if (!a.status.ok()) return a;
    const auto length = decimal(ex.header("content-length"));
    if (!length) return {Status::corruption("answer has no Content-Length"), false};
    info.size = *length;
    fill_info(ex, info);
    return a;
  });
  if (!s.ok()) return named(s, request.what());
  return info;
}

util::Result<std::string> S3Client::get(const S3Location& object, std::uint64_t max_bytes, S3ObjectInfo* info) {
  S3Request request(*this, "GET " + s3_url(object));
  std::string body;
  Status s = request.with_retries([&](std::size_t) -> Attempt {
    Exchange ex;
    ex.url = s3_request_url(m_config, object.bucket, object.key);
    ex.headers.push_back("x-amz-checksum-mode: ENABLED");
    body.clear();
    ex.text = &body;
    ex.limit = max_bytes;
    const CURLcode code = request.perform(ex);
    Attempt a = request.judge(code, ex, object.bucket);
    if (a.status.code() == util::StatusCode::limit_exceeded) {  // read_small_file's words
      const std::string length = ex.header("content-length");
      return {Status::limit_exceeded("'" + s3_url(object) + "' is " +
                                     (length.empty() ? "more than " + std::to_string(max_bytes) : length) +
                                     " bytes, more than the limit of " + std::to_string(max_bytes)),
              false};
    }
    if (!a.status.ok()) return a;
    const std::string length = ex.header("content-length");
    if (!length.empty() && length != std::to_string(body.size())) {
      return {Status::unavailable("body truncated at byte " + std::to_string(body.size()) + " of " + length), true};
    }
    if (info != nullptr) {
      info->key = object.key;
      info->size = body.size();
      fill_info(ex, *info);
    }
    return a;
  });
  if (!s.ok() && s.code() == util::StatusCode::limit_exceeded) return s;  // worded as for a local file
  if (!s.ok()) return named(s, request.what());
  return body;
}

Status S3Client::get_range(const S3Location& object, std::uint64_t offset, std::uint64_t bytes, util::ByteBuffer& out) {
  S3Request request(*this, "GET " + s3_url(object) + " bytes " + std::to_string(offset) + "-" +
                               std::to_string(offset + bytes - (bytes > 0 ? 1 : 0)));
  out.resize_uninitialized(bytes);
  if (bytes == 0) return {};
  Status s = request.with_retries([&](std::size_t) -> Attempt {
    Exchange ex;
    ex.url = s3_request_url(m_config, object.bucket, object.key);
    ex.headers.push_back("Range: bytes=" + std::to_string(offset) + "-" + std::to_string(offset + bytes - 1));
    ex.buffer = &out;
    const CURLcode code = request.perform(ex);
    if (ex.status == 416) {
      return {Status::corruption("the object ends before byte " + std::to_string(offset + bytes)), false};
    }
    Attempt a = request.judge(code, ex, object.bucket);
    if (a.status.code() == util::StatusCode::limit_exceeded) {
      return {Status::unavailable("the server sent more than the " + std::to_string(bytes) + " bytes asked"), true};
    }
    if (!a.status.ok()) return a;
    if (ex.status != 206 && !(ex.status == 200 && offset == 0)) {
      return {Status::unavailable("HTTP " + std::to_string(ex.status) + " to a ranged GET"), false};
    }
    if (ex.received != bytes) {
      // A complete answer with fewer bytes: the object is shorter than the range.
      const std::string range = ex.header("content-range");
      const auto slash = range.rfind('/');
      const auto total = slash == std::string::npos ? std::nullopt : decimal(std::string_view(range).substr(slash + 1));
      if (total && *total < offset + bytes) {
        return {Status::corruption("the object has " + std::to_string(*total) + " bytes, fewer than the " +
                                   std::to_string(offset + bytes) + " the read needs"),
                false};
      }
      return {
          Status::unavailable("body truncated at byte " + std::to_string(ex.received) + " of " + std::to_string(bytes)),
          true};
    }
    return a;
  });
  return named(s, request.what());
}

util::Result<std::vector<S3ObjectInfo>> S3Client::list(const std::string& bucket, const std::string& prefix) {
  std::vector<S3ObjectInfo> out;
  std::string token;
  std::size_t page = 0;
  while (true) {
    ++page;
    S3Request request(*this, "LIST " + s3_url({bucket, prefix}) + (page > 1 ? " page " + std::to_string(page) : ""));
    std::vector<S3ObjectInfo> items;
    std::string next;
    // Parameters in SigV4's canonical order (sorted by name), values URI-encoded.
    std::string query;
    if (!token.empty()) query += "continuation-token=" + s3_uri_encode(token, false) + "&";
    query += "list-type=2&prefix=" + s3_uri_encode(prefix, false);
    Status s = request.with_retries([&](std::size_t) -> Attempt {
      Exchange ex;
      std::string body;
      ex.url = s3_request_url(m_config, bucket, "", query);
      ex.text = &body;
      ex.limit = k_listing_page_limit;
      const CURLcode code = request.perform(ex);
      Attempt a = request.judge(code, ex, bucket);
      if (a.status.code() == util::StatusCode::limit_exceeded) {
        return {Status::corruption("listing page larger than " + std::to_string(k_listing_page_limit) + " bytes"),
                false};
      }
      if (!a.status.ok()) return a;
      if (body.find("<ListBucketResult") == std::string::npos ||
          body.find("</ListBucketResult>") == std::string::npos || !xml_first(body, "IsTruncated")) {
        return {Status::unavailable("the answer is not a ListObjectsV2 result"), true};
      }
      items.clear();
      for (std::string_view contents : xml_elements(body, "Contents")) {
        S3ObjectInfo info;
        auto key = xml_first(contents, "Key");
        auto size = xml_first(contents, "Size");
        if (!key || !size) return {Status::unavailable("a listed object has no Key or Size"), true};
        const auto listed_size = decimal(*size);
        if (!listed_size) return {Status::unavailable("listed size '" + *size + "'"), true};
        info.size = *listed_size;
        info.key = std::move(*key);
        info.etag = xml_first(contents, "ETag").value_or("");
        items.push_back(std::move(info));
      }
      if (auto count = xml_first(body, "KeyCount"); count && *count != std::to_string(items.size())) {
        return {Status::unavailable("the listing says KeyCount " + *count + " but holds " +
                                    std::to_string(items.size()) + " objects"),
                true};
      }
      const bool truncated = xml_first(body, "IsTruncated").value_or("false") == "true";
      next = truncated ? xml_first(body, "NextContinuationToken").value_or("") : std::string();
      if (truncated && next.empty()) {
        return {Status::unavailable("a truncated listing without NextContinuationToken"), true};
      }
      return a;
    });
    if (!s.ok()) return named(s, request.what());
    for (auto& item : items) out.push_back(std::move(item));
    if (next.empty()) break;
    if (next == token) return Status::corruption(request.what() + ": the listing repeats its continuation token");
    token = std::move(next);
  }
  std::sort(out.begin(), out.end(), [](const S3ObjectInfo& a, const S3ObjectInfo& b) { return a.key < b.key; });
  return out;
}

Status S3Client::put(const S3Location& object, std::string_view body, const std::optional<std::string>& crc32c) {
  S3Request request(*this, "PUT " + s3_url(object));
  Status s = request.with_retries([&](std::size_t) -> Attempt {
    Exchange ex;
    ex.method = "PUT";
    ex.url = s3_request_url(m_config, object.bucket, object.key);
    ex.has_body = true;
    ex.upload = body;
    ex.upload_bytes = body.size();
    if (crc32c) ex.headers.push_back("x-amz-checksum-crc32c: " + *crc32c);
    const CURLcode code = request.perform(ex);
    return request.judge(code, ex, object.bucket);
  });
  return named(s, request.what());
}

Status S3Client::put_file(const S3Location& object, const std::string& path, const std::optional<std::string>& crc32c) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return Status::io_error("cannot open '" + path + "': " + std::strerror(errno));
  struct Closer {
    std::FILE* f;
    ~Closer() { std::fclose(f); }
  } closer{file};
  if (std::fseek(file, 0, SEEK_END) != 0) return Status::io_error("cannot seek '" + path + "'");
  const long end = std::ftell(file);
  if (end < 0) return Status::io_error("cannot size '" + path + "'");
  const auto size = static_cast<std::uint64_t>(end);
  // One part of the upload: `bytes` bytes at `offset`.
  auto send = [&](S3Request& request, const std::string& method, const std::string& url, std::uint64_t offset,
                  std::uint64_t bytes, std::vector<std::string> headers, std::string* etag) {
    return request.with_retries([&](std::size_t) -> Attempt {
      if (std::fseek(file, static_cast<long>(offset), SEEK_SET) != 0) {
        return {Status::io_error("cannot seek '" + path + "'"), false};
      }
      Exchange ex;
      ex.method = method;
      ex.url = url;
      ex.has_body = true;
      ex.upload_file = file;
      ex.upload_bytes = bytes;
      ex.headers = headers;
      const CURLcode code = request.perform(ex);
      Attempt a = request.judge(code, ex, object.bucket);
      if (a.status.ok() && etag != nullptr) *etag = ex.header("etag");
      return a;
    });
  };
  if (size <= m_config.multipart_threshold) {
    S3Request request(*this, "PUT " + s3_url(object));
    std::vector<std::string> headers;
    if (crc32c) headers.push_back("x-amz-checksum-crc32c: " + *crc32c);
    return named(
        send(request, "PUT", s3_request_url(m_config, object.bucket, object.key), 0, size, std::move(headers), nullptr),
        request.what());
  }
  // Multipart: create, parts, complete (abort on any failure).
  const std::uint64_t part =
      std::max<std::uint64_t>({m_config.part_bytes, 5ull << 20, (size + k_max_parts - 1) / k_max_parts});
  S3Request create(*this, "CREATE MULTIPART UPLOAD " + s3_url(object));
  std::string upload_id;
  Status s = create.with_retries([&](std::size_t) -> Attempt {
    Exchange ex;
    std::string body;
    ex.method = "POST";
    ex.url = s3_request_url(m_config, object.bucket, object.key, "uploads=");
    ex.has_body = true;
    ex.text = &body;
    ex.limit = k_error_body_limit;
    const CURLcode code = create.perform(ex);
    Attempt a = create.judge(code, ex, object.bucket);
    if (!a.status.ok()) return a;
    upload_id = xml_first(body, "UploadId").value_or("");
    if (upload_id.empty()) return {Status::unavailable("the answer names no UploadId"), true};
    return a;
  });
  if (!s.ok()) return named(s, create.what());
  const std::string id_query = "uploadId=" + s3_uri_encode(upload_id, false);
  std::string complete = "<CompleteMultipartUpload>";
  for (std::uint64_t offset = 0, number = 1; offset < size && s.ok(); offset += part, ++number) {
    S3Request request(*this, "PUT " + s3_url(object) + " part " + std::to_string(number));
    std::string etag;
    s = send(
        request, "PUT",
        s3_request_url(m_config, object.bucket, object.key, "partNumber=" + std::to_string(number) + "&" + id_query),
        offset, std::min(part, size - offset), {}, &etag);
    s = named(s, request.what());
    complete +=
        "<Part><PartNumber>" + std::to_string(number) + "</PartNumber><ETag>" + xml_escape(etag) + "</ETag></Part>";
  }
  complete += "</CompleteMultipartUpload>";
  if (s.ok()) {
    S3Request request(*this, "COMPLETE MULTIPART UPLOAD " + s3_url(object));
    s = request.with_retries([&](std::size_t) -> Attempt {
      Exchange ex;
      ex.method = "POST";
      ex.url = s3_request_url(m_config, object.bucket, object.key, id_query);
      ex.has_body = true;
      ex.upload = complete;
      ex.upload_bytes = complete.size();
      const CURLcode code = request.perform(ex);
      Attempt a = request.judge(code, ex, object.bucket);
      // S3 may answer 200 with an <Error> body.
      if (a.status.ok() && ex.error_body.find("<Error>") != std::string::npos) {
        return {Status::unavailable(xml_first(ex.error_body, "Code").value_or("error") + ": " +
                                    xml_first(ex.error_body, "Message").value_or("")),
                true};
      }
      return a;
    });
    s = named(s, request.what());
  }
  if (!s.ok()) {
    S3Request abort(*this, "ABORT MULTIPART UPLOAD " + s3_url(object));
    Exchange ex;
    ex.method = "DELETE";
    ex.url = s3_request_url(m_config, object.bucket, object.key, id_query);
    (void)abort.perform(ex);
  }
  return s;
}

Status S3Client::ensure_bucket(const std::string& bucket) {
  // HEAD first: a bucket we can use already is fine whoever made it (servers differ on what a
  // second CreateBucket answers); 404 creates it; 403 is someone else's bucket.
  S3Request probe(*this, "HEAD BUCKET s3://" + bucket);
  bool missing = false;
  Status s = probe.with_retries([&](std::size_t) -> Attempt {
    Exchange ex;
    ex.method = "HEAD";
    ex.url = s3_request_url(m_config, bucket, "");
    const CURLcode code = probe.perform(ex);
    Attempt a = probe.judge(code, ex, bucket);
    if (a.status.code() == util::StatusCode::not_found) {
      missing = true;
      return {Status{}, false};
    }
    return a;
  });
  if (!s.ok()) return named(s, probe.what());
  if (!missing) return {};
  S3Request request(*this, "CREATE BUCKET s3://" + bucket);
  s = request.with_retries([&](std::size_t) -> Attempt {
    Exchange ex;
    ex.method = "PUT";
    ex.url = s3_request_url(m_config, bucket, "");
    const CURLcode code = request.perform(ex);
    Attempt a = request.judge(code, ex, bucket);
    const std::string s3_code = xml_first(ex.error_body, "Code").value_or("");
    if (s3_code == "BucketAlreadyOwnedByYou") return {Status{}, false};
    if (s3_code == "BucketAlreadyExists") {  // taken by another account meanwhile
      return {Status::unavailable("the bucket name is taken by another account (BucketAlreadyExists)"), false};
    }
    return a;
  });
  return named(s, request.what());
}

std::string describe_endpoint(const S3Config& config) { return endpoint_origin(config); }

}  // namespace moonquota::source
