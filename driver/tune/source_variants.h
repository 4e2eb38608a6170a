// The kernel texts candidates are compiled from: the spec's own source (read once), and every
// source a transformation derived from it, each named by its SHA-256 (a candidate's source_id).
// Whoever derives a source (a rewrite, a model's proposal) adds it here before submitting a
// candidate of it; the evaluator compiles each candidate from its exact text.
#pragma once

#include <map>
#include <string>

#include "driver/search/search.h"

namespace optiml::tune {

class SourceVariants {
  public:
    // `original`: the spec's source as read when the tuning began (the empty id names it).
    explicit SourceVariants(std::string original) : original_(std::move(original)) {}

    // Its id; adding a text twice gives the same id.
    std::string add(std::string text);
    // The text of `id` (the original for the empty id). Throws std::out_of_range naming the id
    // when none was added.
    const std::string& text(const std::string& id) const;
    bool contains(const std::string& id) const { return id.empty() || texts_.contains(id); }

  private:
    std::string original_;
    std::map<std::string, std::string> texts_;
};

}  // namespace optiml::tune
