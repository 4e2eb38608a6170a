#include "driver/llm/detail/exchange_record.h"

#include <cstdio>

#include "cache/key.h"

namespace optiml::llm {
namespace {

using nlohmann::json;

// %.17g round-trips every double, so two temperatures share a key only when they are equal.
std::string exact_decimal(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

const json& field(const json& object, const char* name, json::value_t type,
                  const std::string& where) {
    if (!object.is_object() || !object.contains(name))
        throw LlmError(where + ": missing field '" + name + "'; record the exchange again");
    const json& value = object[name];
    const bool ok = type == json::value_t::number_integer ? value.is_number_integer()
                    : type == json::value_t::number_float ? value.is_number()
                                                          : value.type() == type;
    if (!ok)
        throw LlmError(where + ": field '" + name +
                       "' has the wrong type; record the exchange "
                       "again");
    return value;
}

}  // namespace

std::string exchange_key(const ChatRequest& request) {
    std::vector<cache::TaggedField> fields{{"kind", "llm_exchange"}, {"model", request.model}};
    for (const Message& message : request.messages) {
        fields.emplace_back("role", message.role);
        fields.emplace_back("content", message.content);
    }
    fields.emplace_back("temperature", exact_decimal(request.temperature));
    fields.emplace_back("max_tokens", std::to_string(request.max_tokens));
    fields.emplace_back("prompt_id", request.prompt_id);
    return cache::compute_tagged_key(fields);
}

json request_to_json(const ChatRequest& request) {
    json messages = json::array();
    for (const Message& message : request.messages)
        messages.push_back({{"role", message.role}, {"content", message.content}});
    return {{"model", request.model},
            {"messages", messages},
            {"temperature", request.temperature},
            {"max_tokens", request.max_tokens},
            {"prompt_id", request.prompt_id}};
}

json reply_to_json(const ChatReply& reply) {
    return {{"content", reply.content},
            {"model", reply.model},
            {"usage",
             {{"prompt_tokens", reply.usage.prompt_tokens},
              {"completion_tokens", reply.usage.completion_tokens}}}};
}

ChatRequest request_from_json(const json& object, const std::string& where) {
    ChatRequest request;
    request.model = field(object, "model", json::value_t::string, where).get<std::string>();
    for (const json& message : field(object, "messages", json::value_t::array, where))
        request.messages.push_back(
            {field(message, "role", json::value_t::string, where).get<std::string>(),
             field(message, "content", json::value_t::string, where).get<std::string>()});
    request.temperature =
        field(object, "temperature", json::value_t::number_float, where).get<double>();
    request.max_tokens =
        field(object, "max_tokens", json::value_t::number_integer, where).get<int>();
    request.prompt_id = field(object, "prompt_id", json::value_t::string, where).get<std::string>();
    return request;
}

ChatReply reply_from_json(const json& object, const std::string& where) {
    ChatReply reply;
    reply.content = field(object, "content", json::value_t::string, where).get<std::string>();
    reply.model = field(object, "model", json::value_t::string, where).get<std::string>();
    const json& usage = field(object, "usage", json::value_t::object, where);
    reply.usage.prompt_tokens =
        field(usage, "prompt_tokens", json::value_t::number_integer, where).get<long>();
    reply.usage.completion_tokens =
        field(usage, "completion_tokens", json::value_t::number_integer, where).get<long>();
    return reply;
}

}  // namespace optiml::llm
