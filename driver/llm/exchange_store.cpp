#include "driver/llm/detail/exchange_store.h"

#include "cache/backend.h"
#include "driver/llm/detail/exchange_record.h"

namespace optiml::llm {

std::filesystem::path exchange_dir(const std::filesystem::path& cache_root) {
    return cache_root / "llm";
}

ExchangeStore::ExchangeStore(const std::filesystem::path& cache_root,
                             const std::vector<std::filesystem::path>& seeds,
                             std::function<void(const std::string&)> warn)
    : local_(exchange_dir(cache_root)), warn_(std::move(warn)) {
    searched_.push_back(local_);
    chain_.add(std::make_unique<cache::LocalBackend>(cache::Store(local_)), "cache");
    for (const std::filesystem::path& seed : seeds) {
        std::error_code error;
        if (!std::filesystem::is_directory(exchange_dir(seed) / "entries", error)) continue;
        searched_.push_back(exchange_dir(seed));
        chain_.add(std::make_unique<cache::LocalBackend>(
                       cache::Store(exchange_dir(seed), /*read_only=*/true)),
                   "seed");
    }
}

std::optional<ChatReply> ExchangeStore::find(const std::string& key) const {
    const auto found = chain_.fetch(key, [this](const std::string& line) {
        if (warn_) warn_(line);
    });
    if (!found) return std::nullopt;
    const std::string where = found->entry.directory.string() + "/manifest.json";
    try {
        return reply_from_json(found->entry.manifest.at("reply"), where);
    } catch (const nlohmann::json::exception&) {
        if (warn_) warn_(where + ": no reply recorded; ignoring the exchange");
        return std::nullopt;
    } catch (const LlmError& e) {
        if (warn_) warn_(std::string(e.what()) + "; ignoring the exchange");
        return std::nullopt;
    }
}

void ExchangeStore::record(const std::string& key, const ChatRequest& request,
                           const ChatReply& reply, std::optional<double> cost_usd) {
    cache::Entry entry;
    entry.key = key;
    entry.manifest = {{"kind", "llm_exchange"},
                      {"prompt_id", request.prompt_id},
                      {"request", request_to_json(request)},
                      {"reply", reply_to_json(reply)}};
    if (cost_usd) entry.manifest["cost_usd"] = *cost_usd;
    try {
        cache::Store(local_).put(entry);
    } catch (const std::exception& e) {
        throw LlmError("could not record the LLM exchange in " + local_.string() + ": " + e.what());
    }
}

std::string ExchangeStore::locations() const {
    std::string text;
    for (const auto& folder : searched_) text += (text.empty() ? "" : ", ") + folder.string();
    return text;
}

}  // namespace optiml::llm
