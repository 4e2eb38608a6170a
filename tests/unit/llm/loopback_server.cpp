#include "tests/unit/llm/loopback_server.h"

#include <chrono>
#include <csignal>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

namespace optiml::llm::testing {

LoopbackServer::LoopbackServer(const nlohmann::json& script, const std::filesystem::path& folder)
    : log_(folder / "requests.jsonl") {
    const auto script_path = folder / "script.json";
    const auto port_file = folder / "port";
    std::ofstream(script_path) << script.dump(2);
    std::vector<std::string> arguments{
        "python3",     OPTIML_SOURCE_DIR "/tests/llm/openai_server.py",
        "--script",    script_path.string(),
        "--port-file", port_file.string(),
        "--log",       log_.string()};
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    if (posix_spawnp(&pid_, "python3", nullptr, nullptr, argv.data(), environ) != 0) {
        pid_ = -1;
        ADD_FAILURE() << "could not start python3 " << arguments[1];
        return;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
        std::ifstream in(port_file);
        if (in >> port_ && port_ > 0) return;
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            ADD_FAILURE() << "openai_server.py exited before listening";
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ADD_FAILURE() << "openai_server.py wrote no port within 20 s";
}

LoopbackServer::~LoopbackServer() {
    stop();
}

void LoopbackServer::stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
}

std::string LoopbackServer::base_url() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/v1";
}

std::vector<nlohmann::json> LoopbackServer::requests() const {
    std::vector<nlohmann::json> lines;
    std::ifstream in(log_);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
    return lines;
}

nlohmann::json answer(const std::string& content) {
    return {{"content", content}};
}

}  // namespace optiml::llm::testing
