// The kernel texts candidates are compiled from: the spec's own source, and every source a
// transformation derived from it, each named by its SHA-256 (a candidate's source_id). Whoever
// derives a source (a rewrite, a model's proposal) adds it here before submitting a candidate
// of it; the evaluator compiles each candidate from its exact text.
#pragma once

#include <map>
#include <string>

#include "driver/search/search.h"

namespace optiml::tune {

class SourceVariants {
  public:
    // Its id; adding a text twice gives the same id.
    std::string add(std::string text);
    // The text of `id`. Throws std::out_of_range naming the id when none was added.
    const std::string& text(const std::string& id) const;
    bool contains(const std::string& id) const { return texts_.contains(id); }

  private:
    std::map<std::string, std::string> texts_;
};

}  // namespace optiml::tune
