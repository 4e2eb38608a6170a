#include "driver/profile/profile_protocol.h"

namespace optiml::profile {

void to_json(nlohmann::json& json, const ProfileRequest& request) {
    json = {{"metrics", request.metrics},
            {"pc_sampling", request.pc_sampling},
            {"pc_sampling_target_ms", request.pc_sampling_target_ms}};
}

void from_json(const nlohmann::json& json, ProfileRequest& request) {
    request.metrics = json.value("metrics", std::vector<std::string>{});
    request.pc_sampling = json.value("pc_sampling", true);
    request.pc_sampling_target_ms = json.value("pc_sampling_target_ms", 50.0);
}

void to_json(nlohmann::json& json, const FunctionAttributes& a) {
    json = {{"registers_per_thread", a.registers_per_thread},
            {"local_bytes_per_thread", a.local_bytes_per_thread},
            {"static_shared_bytes", a.static_shared_bytes},
            {"dynamic_shared_bytes", a.dynamic_shared_bytes},
            {"max_threads_per_block", a.max_threads_per_block}};
}

void from_json(const nlohmann::json& json, FunctionAttributes& a) {
    a.registers_per_thread = json.value("registers_per_thread", 0);
    a.local_bytes_per_thread = json.value("local_bytes_per_thread", 0);
    a.static_shared_bytes = json.value("static_shared_bytes", 0);
    a.dynamic_shared_bytes = json.value("dynamic_shared_bytes", 0u);
    a.max_threads_per_block = json.value("max_threads_per_block", 0);
}

namespace {

nlohmann::json stall_json(const analysis::StallSample& s) {
    return {{"file", s.file},
            {"line", s.line},
            {"reason", s.reason},
            {"samples", s.samples},
            {"not_stalled", s.not_stalled}};
}

analysis::StallSample stall_from(const nlohmann::json& json) {
    analysis::StallSample s;
    s.file = json.value("file", "");
    s.line = json.value("line", 0);
    s.reason = json.value("reason", "");
    s.samples = json.value("samples", std::uint64_t{0});
    s.not_stalled = json.value("not_stalled", false);
    return s;
}

}  // namespace

void to_json(nlohmann::json& json, const ProfileResult& r) {
    nlohmann::json stalls = nlohmann::json::array();
    for (const auto& s : r.stalls) stalls.push_back(stall_json(s));
    json = {{"ok", r.ok},
            {"message", r.message},
            {"counters", r.counters},
            {"unavailable", r.unavailable},
            {"counters_permitted", r.counters_permitted},
            {"counters_note", r.counters_note},
            {"passes", r.passes},
            {"counters_ms", r.counters_ms},
            {"function", r.function},
            {"pc_sampling_done", r.pc_sampling_done},
            {"pc_sampling_note", r.pc_sampling_note},
            {"stalls", stalls},
            {"pc_total_samples", r.pc_total_samples},
            {"pc_dropped_samples", r.pc_dropped_samples},
            {"pc_sampling_launches", r.pc_sampling_launches},
            {"pc_sampling_ms", r.pc_sampling_ms}};
}

void from_json(const nlohmann::json& json, ProfileResult& r) {
    r.ok = json.value("ok", false);
    r.message = json.value("message", "");
    r.counters = json.value("counters", std::map<std::string, double>{});
    r.unavailable = json.value("unavailable", std::vector<std::string>{});
    r.counters_permitted = json.value("counters_permitted", true);
    r.counters_note = json.value("counters_note", "");
    r.passes = json.value("passes", 0);
    r.counters_ms = json.value("counters_ms", 0.0);
    if (json.contains("function")) r.function = json["function"].get<FunctionAttributes>();
    r.pc_sampling_done = json.value("pc_sampling_done", false);
    r.pc_sampling_note = json.value("pc_sampling_note", "");
    r.stalls.clear();
    if (json.contains("stalls"))
        for (const auto& s : json["stalls"]) r.stalls.push_back(stall_from(s));
    r.pc_total_samples = json.value("pc_total_samples", std::uint64_t{0});
    r.pc_dropped_samples = json.value("pc_dropped_samples", std::uint64_t{0});
    r.pc_sampling_launches = json.value("pc_sampling_launches", 0);
    r.pc_sampling_ms = json.value("pc_sampling_ms", 0.0);
}

void to_json(nlohmann::json& json, const Calibration& c) {
    json = {{"ok", c.ok},
            {"message", c.message},
            {"device", c.device},
            {"dram_bytes_per_s", c.dram_bytes_per_s},
            {"dram_by_pattern", c.dram_by_pattern},
            {"flops_per_s", c.flops_per_s},
            {"sm_clock_mhz", c.sm_clock_mhz},
            {"memory_clock_mhz", c.memory_clock_mhz}};
}

void from_json(const nlohmann::json& json, Calibration& c) {
    c.ok = json.value("ok", false);
    c.message = json.value("message", "");
    c.device = json.value("device", "");
    c.dram_bytes_per_s = json.value("dram_bytes_per_s", 0.0);
    c.dram_by_pattern = json.value("dram_by_pattern", std::map<std::string, double>{});
    c.flops_per_s = json.value("flops_per_s", std::map<std::string, double>{});
    c.sm_clock_mhz = json.value("sm_clock_mhz", 0u);
    c.memory_clock_mhz = json.value("memory_clock_mhz", 0u);
}

}  // namespace optiml::profile
