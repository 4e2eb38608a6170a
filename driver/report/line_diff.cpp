#include "driver/report/detail/line_diff.h"

#include <algorithm>
#include <vector>

namespace optiml::report {
namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) {
            lines.push_back(text.substr(start));
            break;
        }
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

struct Line {
    char mark;  // ' ', '-', '+'
    std::string_view text;
    int old_line, new_line;  // 1-based position in each text (of the line, or where it goes)
};

// The edit script: every line of both texts in order, kept lines once.
std::vector<Line> edit_script(const std::vector<std::string_view>& a,
                              const std::vector<std::string_view>& b) {
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            lcs[i][j] =
                a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::vector<Line> script;
    std::size_t i = 0, j = 0;
    const auto at = [](std::size_t k) { return static_cast<int>(k) + 1; };
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j]) {
            script.push_back({' ', a[i], at(i), at(j)});
            ++i, ++j;
        } else if (j < m && (i == n || lcs[i][j + 1] > lcs[i + 1][j])) {  // "-" before "+"
            script.push_back({'+', b[j], at(i), at(j)});
            ++j;
        } else {
            script.push_back({'-', a[i], at(i), at(j)});
            ++i;
        }
    }
    return script;
}

}  // namespace

std::string unified_diff(std::string_view before, std::string_view after, std::string_view name,
                         int context) {
    const std::vector<Line> script = edit_script(split_lines(before), split_lines(after));
    std::vector<std::size_t> changed;
    for (std::size_t k = 0; k < script.size(); ++k)
        if (script[k].mark != ' ') changed.push_back(k);
    if (changed.empty()) return "";
    std::string out = "--- a/" + std::string(name) + "\n+++ b/" + std::string(name) + "\n";
    const auto reach = static_cast<std::size_t>(std::max(context, 0));
    std::size_t next = 0;
    while (next < changed.size()) {
        // One hunk: changes whose context windows touch.
        const std::size_t first = changed[next] >= reach ? changed[next] - reach : 0;
        std::size_t last = changed[next];
        while (next + 1 < changed.size() && changed[next + 1] <= last + 2 * reach + 1)
            last = changed[++next];
        ++next;
        last = std::min(script.size() - 1, last + reach);
        int old_count = 0, new_count = 0;
        for (std::size_t k = first; k <= last; ++k) {
            old_count += script[k].mark != '+' ? 1 : 0;
            new_count += script[k].mark != '-' ? 1 : 0;
        }
        const int old_start = old_count ? script[first].old_line : script[first].old_line - 1;
        const int new_start = new_count ? script[first].new_line : script[first].new_line - 1;
        out += "@@ -" + std::to_string(old_start) + "," + std::to_string(old_count) + " +" +
               std::to_string(new_start) + "," + std::to_string(new_count) + " @@\n";
        for (std::size_t k = first; k <= last; ++k)
            out += std::string(1, script[k].mark) + std::string(script[k].text) + "\n";
    }
    return out;
}

}  // namespace optiml::report
