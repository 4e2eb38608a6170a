// Reading synthesis answers: the fenced code blocks a model writes its kernel, spec and routing
// choice in. A model is an untrusted author: anything not in the expected block is ignored.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace optiml::llm {

// The body of the first ``` block whose info string is one of `languages` ("" matches a block
// without one); nullopt when there is none.
std::optional<std::string> fenced_block(const std::string& text,
                                        const std::vector<std::string>& languages);

// The kernel in an answer: its first cuda/cu/cpp/c++ block, else its first plain block.
std::optional<std::string> kernel_block(const std::string& text);

}  // namespace optiml::llm
