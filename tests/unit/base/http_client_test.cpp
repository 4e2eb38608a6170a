// The one libcurl wrapper (driver/base/http_client.h) against a real HTTP server on loopback:
// tests/llm/openai_server.py through its fixture (tests/unit/llm/loopback_server.h), which answers
// GET, HEAD, PUT and POST from a script and logs what each request carried.
#include "driver/base/http_client.h"

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "driver/base/scratch_dir.h"
#include "tests/unit/llm/loopback_server.h"

namespace optiml::base {
namespace {

using llm::testing::LoopbackServer;
using nlohmann::json;

class HttpClientTest : public ::testing::Test {
  protected:
    ScratchDir scratch_{"optiml-http-client-test"};
};

// A loopback URL nothing listens on: a port the kernel just handed out, closed again.
std::string closed_port_url() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
    socklen_t length = sizeof address;
    getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    close(fd);
    return "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/x";
}

HttpOptions timeouts(long connect_ms, long total_ms) {
    HttpOptions options;
    options.connect_timeout_ms = connect_ms;
    options.timeout_ms = total_ms;
    return options;
}

TEST_F(HttpClientTest, GetReturnsTheStatusTheBodyAndTheHeaders) {
    LoopbackServer server(
        {{"responses", {{{"raw", "blob bytes"}, {"headers", {{"X-Answer", " forty two \t"}}}}}}},
        scratch_.path());
    HttpClient client;
    const HttpResponse response = client.request("GET", server.base_url() + "/cas/abc");
    EXPECT_EQ(response.status, 200);
    EXPECT_EQ(response.body, "blob bytes");
    EXPECT_TRUE(response.transport_error.empty()) << response.transport_error;
    EXPECT_EQ(response.header("x-answer"), "forty two");  // any case; trimmed
    EXPECT_EQ(response.header("Content-Length"), "10");
    EXPECT_EQ(response.header("Retry-After"), std::nullopt);
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0]["method"], "GET");
    EXPECT_EQ(requests[0]["path"], "/v1/cas/abc");
    EXPECT_FALSE(requests[0]["authorization_present"].get<bool>());
}

TEST_F(HttpClientTest, PostAndPutSendTheBodyAndTheHeadersGiven) {
    LoopbackServer server({{"responses", {{{"content", "hi"}}, {{"status", 201}, {"body", ""}}}}},
                          scratch_.path());
    HttpClient client;
    const HttpResponse posted =
        client.request("POST", server.base_url() + "/chat/completions",
                       {"Content-Type: application/json", "X-Extra: 1"}, R"({"a": 1})");
    EXPECT_EQ(posted.status, 200);
    EXPECT_EQ(json::parse(posted.body)["choices"][0]["message"]["content"], "hi");
    const HttpResponse put = client.request("PUT", server.base_url() + "/cas/abc",
                                            {"Content-Type: application/octet-stream"}, "blob");
    EXPECT_EQ(put.status, 201);

    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[0]["method"], "POST");
    EXPECT_EQ(requests[0]["body"], json({{"a", 1}}));
    EXPECT_EQ(requests[0]["headers"]["Content-Type"], "application/json");
    EXPECT_EQ(requests[0]["headers"]["X-Extra"], "1");
    EXPECT_EQ(requests[1]["method"], "PUT");
    EXPECT_EQ(requests[1]["body"], "blob");
    EXPECT_EQ(requests[1]["headers"]["Content-Type"], "application/octet-stream");
    EXPECT_EQ(requests[1]["headers"]["Content-Length"], "4");
    // One handle, reused: the second request came over the first one's connection.
    EXPECT_EQ(requests[0]["client_port"], requests[1]["client_port"]);
}

TEST_F(HttpClientTest, AnEmptyPutStillSendsItsBody) {
    LoopbackServer server({{"responses", {{{"status", 200}, {"body", ""}}}}}, scratch_.path());
    HttpClient client;
    EXPECT_EQ(client.request("PUT", server.base_url() + "/cas/empty", {}, "").status, 200);
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests[0]["method"], "PUT");
    EXPECT_EQ(requests[0]["headers"]["Content-Length"], "0");
}

TEST_F(HttpClientTest, HeadAsksWithoutABody) {
    LoopbackServer server({{"responses", {{{"raw", "xyz"}}, {{"status", 404}}}}}, scratch_.path());
    HttpClient client;
    const HttpResponse there = client.request("HEAD", server.base_url() + "/ac/k");
    EXPECT_EQ(there.status, 200);
    EXPECT_EQ(there.body, "");
    EXPECT_EQ(there.header("Content-Length"), "3");
    const HttpResponse missing = client.request("HEAD", server.base_url() + "/ac/other");
    EXPECT_EQ(missing.status, 404);
    EXPECT_TRUE(missing.transport_error.empty());
    ASSERT_EQ(server.requests().size(), 2u);
    EXPECT_EQ(server.requests()[0]["method"], "HEAD");
}

TEST_F(HttpClientTest, AnErrorStatusIsAnAnswerNotATransportError) {
    LoopbackServer server(
        {{"responses", {{{"status", 503}, {"headers", {{"Retry-After", "7"}}}, {"body", "busy"}}}}},
        scratch_.path());
    HttpClient client;
    const HttpResponse response = client.request("GET", server.base_url() + "/ac/k");
    EXPECT_EQ(response.status, 503);
    EXPECT_EQ(response.body, "busy");
    EXPECT_EQ(response.header("retry-after"), "7");
    EXPECT_TRUE(response.transport_error.empty());
    EXPECT_FALSE(response.transient);
}

TEST_F(HttpClientTest, ABearerTokenWinsOverBasicAuthenticationAndNoneIsSentWithout) {
    LoopbackServer server({{"responses", {{{"raw", "ok"}}}}, {"repeat_last", true}},
                          scratch_.path());
    HttpOptions with_user;
    with_user.user = "u";
    with_user.password = "p";
    HttpOptions with_both = with_user;
    with_both.bearer_token = "secret-token";
    HttpClient bearer(with_both);
    HttpClient basic(with_user);
    HttpClient none;
    EXPECT_EQ(bearer.request("GET", server.base_url() + "/a").status, 200);
    EXPECT_EQ(basic.request("GET", server.base_url() + "/b").status, 200);
    EXPECT_EQ(none.request("GET", server.base_url() + "/c").status, 200);
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 3u);
    EXPECT_EQ(requests[0]["authorization_scheme"], "Bearer");
    EXPECT_EQ(requests[1]["authorization_scheme"], "Basic");
    EXPECT_FALSE(requests[2]["authorization_present"].get<bool>());
}

TEST_F(HttpClientTest, ATimeoutIsATransientTransportError) {
    LoopbackServer server({{"responses", {{{"delay_s", 5}, {"raw", "late"}}}}}, scratch_.path());
    HttpClient client(timeouts(2000, 300));
    const HttpResponse response = client.request("GET", server.base_url() + "/slow");
    EXPECT_EQ(response.status, 0);
    EXPECT_TRUE(response.transient);
    EXPECT_NE(response.transport_error.find("imed out"), std::string::npos)
        << response.transport_error;  // libcurl's words
    EXPECT_TRUE(response.body.empty());
}

TEST_F(HttpClientTest, ARefusedConnectionIsATransientTransportError) {
    HttpClient client(timeouts(2000, 2000));
    const HttpResponse response = client.request("GET", closed_port_url());
    EXPECT_EQ(response.status, 0);
    EXPECT_TRUE(response.transient);
    EXPECT_FALSE(response.transport_error.empty());
}

TEST_F(HttpClientTest, OnlyHttpAndHttpsAreSpoken) {
    HttpClient client;
    const HttpResponse response = client.request("GET", "file:///etc/hostname");
    EXPECT_EQ(response.status, 0);
    EXPECT_FALSE(response.transient);  // another try meets the same refusal
    EXPECT_FALSE(response.transport_error.empty());
    EXPECT_TRUE(response.body.empty());
}

TEST_F(HttpClientTest, ARedirectIsNotFollowed) {
    LoopbackServer server({{"responses",
                            {{{"status", 302},
                              {"headers", {{"Location", "http://127.0.0.1:1/elsewhere"}}},
                              {"body", ""}},
                             {{"raw", "followed"}}}}},
                          scratch_.path());
    HttpOptions options;
    options.bearer_token = "secret-token";
    HttpClient client(options);
    const HttpResponse response = client.request("GET", server.base_url() + "/moved");
    EXPECT_EQ(response.status, 302);
    EXPECT_EQ(response.header("location"), "http://127.0.0.1:1/elsewhere");
    EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(HttpClientTest, ALargerAnswerThanTheLimitIsRefusedNotBuffered) {
    LoopbackServer server({{"responses", {{{"raw", std::string(100, 'x')}}}}}, scratch_.path());
    HttpOptions options;
    options.max_response_bytes = 10;
    HttpClient client(options);
    const HttpResponse response = client.request("GET", server.base_url() + "/big");
    EXPECT_EQ(response.status, 0);
    EXPECT_FALSE(response.transport_error.empty());
    EXPECT_TRUE(response.body.empty());
}

TEST(HttpResponseTest, TheLastHeaderOfANameAnswers) {
    HttpResponse response;
    response.headers = {{"Set-Cookie", "a"}, {"X-Other", "b"}, {"set-cookie", "c"}};
    EXPECT_EQ(response.header("SET-COOKIE"), "c");
    EXPECT_EQ(response.header("X-Other"), "b");
    EXPECT_EQ(response.header("X-Oth"), std::nullopt);
}

TEST(HttpDateTest, ReadsAnHttpDateAndNothingElse) {
    EXPECT_EQ(parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT"), std::time_t{1445412480});
    EXPECT_EQ(parse_http_date("soon"), std::nullopt);
}

}  // namespace
}  // namespace optiml::base
