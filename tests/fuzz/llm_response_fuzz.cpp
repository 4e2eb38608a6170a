// An LLM endpoint's answer: the bytes are the body of an HTTP 200 from an OpenAI-compatible
// chat-completions endpoint (driver/llm/detail/http_chat.h: parse_chat_reply), whose message is
// then read as a proposal (response_parse.h: the ```cuda block and the JSON block of changes) and
// held to the guardrails against the example kernel it rewrites (guardrail.h; its body emptied). A
// body that is not a chat.completion is also read as the message itself, so that mutations reach
// the answer's parser directly. Allowed: LlmError (never carrying the API key), AnswerRejected of
// stage "parse" from the parser and of stage "guardrail" from the guardrails; anything else is a
// finding, as is a guarded kernel whose lines from the answer lie outside its text.
#include "driver/llm/detail/http_chat.h"
#include "driver/llm/guardrail.h"
#include "driver/llm/response_parse.h"
#include "driver/source/kernel_text.h"
#include "fuzz_support.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using namespace optiml;

const std::string kApiKey = "sk-fuzz-7f3a9c1e5b2d4f6a8c0e";

struct Original {
    std::string name;  // the kernel's
    std::string text;  // its file's
};

// The example's file with its kernel's body emptied: the guardrails compare the kernel's
// signature and replace its whole span, so the body only costs lexing time (most of a run's,
// under libFuzzer's instrumentation).
Original example(const std::string& name, const std::string& file) {
    std::ifstream in(std::filesystem::path(OPTIML_SOURCE_DIR) / file, std::ios::binary);
    std::ostringstream read;
    read << in.rdbuf();
    const std::string text = read.str();
    if (text.empty()) fuzz::finding("cannot read " + file);
    const source::KernelText kernel = source::find_kernel(text, name);
    return {name, text.substr(0, kernel.body_begin) + "{\n}\n" + text.substr(kernel.body_end)};
}

// The example the answer rewrites: saxpy's when its code names saxpy, else matmul's.
const Original& original_for(const std::string& code) {
    static const Original saxpy = example("saxpy", "examples/saxpy/kernels/saxpy.cu");
    static const Original matmul = example("matmul", "examples/matmul/kernels/matmul.cu");
    return code.find("saxpy") != std::string::npos ? saxpy : matmul;
}

void read_answer(const std::string& content) {
    llm::Answer answer;
    try {
        answer = llm::parse_answer(content);
    } catch (const llm::AnswerRejected& rejected) {
        if (rejected.stage() != "parse")
            fuzz::finding("the parser rejected an answer at stage " + rejected.stage());
        return;
    }
    const Original& original = original_for(answer.code);
    try {
        const llm::GuardedKernel kernel = llm::guard_answer(original.text, original.name, answer);
        const auto lines = 1 + std::count(kernel.text.begin(), kernel.text.end(), '\n');
        if (kernel.first_line < 1 || kernel.last_line < kernel.first_line ||
            kernel.last_line > lines)
            fuzz::finding("a guarded kernel whose answer lines " +
                          std::to_string(kernel.first_line) + "-" +
                          std::to_string(kernel.last_line) + " lie outside its " +
                          std::to_string(lines) + " lines");
    } catch (const llm::AnswerRejected& rejected) {
        if (rejected.stage() != "guardrail")
            fuzz::finding("the guardrails rejected an answer at stage " + rejected.stage());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string body(fuzz::as_text(data, size));
    try {
        read_answer(llm::parse_chat_reply(body, kApiKey).content);
        return 0;
    } catch (const llm::LlmError& error) {
        if (std::string(error.what()).find(kApiKey) != std::string::npos)
            fuzz::finding(std::string("an LLM error that carries the API key: ") + error.what());
    }
    read_answer(body);
    return 0;
}
