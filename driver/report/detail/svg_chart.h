// An x-y chart as inline SVG: axes (linear or logarithmic) with ticks, a legend, and series of
// points and/or lines. Every series is one <g class="series <css>" data-series="<name>">; every
// point a <circle> with a <title> the browser shows on hover, so the page needs no script.
#pragma once

#include <string>
#include <vector>

namespace optiml::report {

struct ChartPoint {
    double x = 0.0;
    double y = 0.0;
    std::string label;   // the hover text; empty: none
    bool marker = true;  // false: a vertex of the series' line only (no circle)
};

struct ChartSeries {
    std::string name;  // in the legend
    std::string css;   // a class the page's stylesheet colours
    std::vector<ChartPoint> points;
    bool line = false;    // joined in order
    bool step = false;    // joined as a staircase (best-so-far curves)
    bool markers = true;  // a circle per point
};

struct Chart {
    std::string id;  // the <svg> element's id
    std::string title;
    std::string x_label;
    std::string y_label;
    bool log_x = false;
    bool log_y = false;
    std::vector<ChartSeries> series;
    int width = 720;
    int height = 400;
};

// Points that cannot be drawn (not finite, or not positive on a log axis) are left out.
std::string render_svg(const Chart& chart);

}  // namespace optiml::report
