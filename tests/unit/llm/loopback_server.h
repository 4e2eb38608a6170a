// Test fixture: tests/llm/openai_server.py as a subprocess on loopback, with a script written
// from JSON, its request log, and the base URL to give the client. Stopped (SIGTERM) when it
// goes out of scope or by stop().
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <sys/types.h>
#include <nlohmann/json.hpp>

namespace optiml::llm::testing {

class LoopbackServer {
  public:
    // Writes `script` into `folder`, starts the server and waits (up to 20 s) for its port.
    // Fails the current test (ADD_FAILURE) when it does not come up.
    LoopbackServer(const nlohmann::json& script, const std::filesystem::path& folder);
    ~LoopbackServer();
    LoopbackServer(const LoopbackServer&) = delete;
    LoopbackServer& operator=(const LoopbackServer&) = delete;

    std::string base_url() const;  // http://127.0.0.1:<port>/v1
    int port() const { return port_; }
    const std::filesystem::path& log_path() const { return log_; }
    std::vector<nlohmann::json> requests() const;  // the log, one object per request
    void stop();

  private:
    pid_t pid_ = -1;
    int port_ = 0;
    std::filesystem::path log_;
};

// One scripted answer with `content`.
nlohmann::json answer(const std::string& content);

}  // namespace optiml::llm::testing
