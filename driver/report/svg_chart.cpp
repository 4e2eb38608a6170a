#include "driver/report/detail/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "driver/base/format.h"
#include "driver/report/detail/html_text.h"

namespace optiml::report {
namespace {

constexpr int kLeft = 70, kRight = 20, kTop = 36, kBottom = 48;

std::string coordinate(double value) {
    char text[32];
    std::snprintf(text, sizeof(text), "%.1f", value);
    return text;
}

// One axis: the data range mapped onto pixels, with its ticks.
struct Axis {
    bool log = false;
    double low = 0.0, high = 1.0;  // in data units (log axes: decades rounded outwards)
    double from = 0.0, to = 1.0;   // pixels

    double map(double v) const {
        const double a = log ? std::log10(low) : low;
        const double b = log ? std::log10(high) : high;
        const double t = ((log ? std::log10(v) : v) - a) / (b - a);
        return from + t * (to - from);
    }
    std::vector<double> ticks() const {
        std::vector<double> out;
        if (log) {
            for (double v = low; v <= high * 1.0001; v *= 10) out.push_back(v);
            return out;
        }
        const double raw = (high - low) / 5.0;
        const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
        const double step = raw / magnitude < 2   ? 2 * magnitude
                            : raw / magnitude < 5 ? 5 * magnitude
                                                  : 10 * magnitude;
        for (double v = std::ceil(low / step) * step; v <= high + step * 1e-6; v += step)
            out.push_back(v);
        return out;
    }
};

bool drawable(double v, bool log) {
    return std::isfinite(v) && (!log || v > 0);
}

Axis make_axis(const std::vector<double>& values, bool log, double from, double to) {
    Axis axis{log, 0.0, 1.0, from, to};
    if (values.empty()) {
        if (log) axis.low = 1.0, axis.high = 10.0;
        return axis;
    }
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    if (log) {
        axis.low = std::pow(10.0, std::floor(std::log10(*lo)));
        axis.high = std::pow(10.0, std::ceil(std::log10(*hi)));
        if (axis.high <= axis.low) axis.high = axis.low * 10;
    } else {
        axis.low = std::min(0.0, *lo);
        axis.high = *hi > axis.low ? *hi * 1.05 : axis.low + 1.0;
    }
    return axis;
}

}  // namespace

std::string render_svg(const Chart& chart) {
    std::vector<double> xs, ys;
    for (const auto& s : chart.series)
        for (const auto& p : s.points)
            if (drawable(p.x, chart.log_x) && drawable(p.y, chart.log_y)) {
                xs.push_back(p.x);
                ys.push_back(p.y);
            }
    const Axis x = make_axis(xs, chart.log_x, kLeft, chart.width - kRight);
    const Axis y = make_axis(ys, chart.log_y, chart.height - kBottom, kTop);

    std::ostringstream out;
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" << escape_html(chart.id)
        << "\" class=\"chart\" width=\"" << chart.width << "\" height=\"" << chart.height
        << "\" viewBox=\"0 0 " << chart.width << " " << chart.height << "\" role=\"img\">\n"
        << "<text class=\"chart-title\" x=\"" << kLeft << "\" y=\"20\">" << escape_html(chart.title)
        << "</text>\n<g class=\"axes\">\n";
    for (const double t : x.ticks()) {
        const std::string px = coordinate(x.map(t));
        out << "<line class=\"grid\" x1=\"" << px << "\" x2=\"" << px << "\" y1=\"" << y.from
            << "\" y2=\"" << y.to << "\"/><text class=\"tick\" x=\"" << px << "\" y=\""
            << y.from + 16 << "\" text-anchor=\"middle\">" << escape_html(base::format::si(t, ""))
            << "</text>\n";
    }
    for (const double t : y.ticks()) {
        const std::string py = coordinate(y.map(t));
        out << "<line class=\"grid\" x1=\"" << x.from << "\" x2=\"" << x.to << "\" y1=\"" << py
            << "\" y2=\"" << py << "\"/><text class=\"tick\" x=\"" << x.from - 6 << "\" y=\"" << py
            << "\" text-anchor=\"end\" dominant-baseline=\"middle\">"
            << escape_html(base::format::si(t, "")) << "</text>\n";
    }
    out << "<line class=\"axis\" x1=\"" << x.from << "\" x2=\"" << x.to << "\" y1=\"" << y.from
        << "\" y2=\"" << y.from << "\"/><line class=\"axis\" x1=\"" << x.from << "\" x2=\""
        << x.from << "\" y1=\"" << y.from << "\" y2=\"" << y.to << "\"/>\n"
        << "<text class=\"axis-label\" x=\"" << (x.from + x.to) / 2 << "\" y=\"" << chart.height - 8
        << "\" text-anchor=\"middle\">" << escape_html(chart.x_label)
        << "</text>\n<text class=\"axis-label\" transform=\"translate(14 " << (y.from + y.to) / 2
        << ") rotate(-90)\" text-anchor=\"middle\">" << escape_html(chart.y_label)
        << "</text>\n</g>\n";

    int legend_row = 0;
    for (const auto& s : chart.series) {
        out << "<g class=\"series " << escape_html(s.css) << "\" data-series=\""
            << escape_html(s.name) << "\">\n";
        std::vector<const ChartPoint*> shown;
        for (const auto& p : s.points)
            if (drawable(p.x, chart.log_x) && drawable(p.y, chart.log_y)) shown.push_back(&p);
        if ((s.line || s.step) && shown.size() > 1) {
            out << "<polyline fill=\"none\" points=\"";
            for (std::size_t i = 0; i < shown.size(); ++i) {
                if (s.step && i > 0)
                    out << coordinate(x.map(shown[i]->x)) << ","
                        << coordinate(y.map(shown[i - 1]->y)) << " ";
                out << coordinate(x.map(shown[i]->x)) << "," << coordinate(y.map(shown[i]->y))
                    << " ";
            }
            out << "\"/>\n";
        }
        if (s.markers)
            for (const auto* p : shown) {
                if (!p->marker) continue;
                out << "<circle cx=\"" << coordinate(x.map(p->x)) << "\" cy=\""
                    << coordinate(y.map(p->y)) << "\" r=\"4\">";
                if (!p->label.empty()) out << "<title>" << escape_html(p->label) << "</title>";
                out << "</circle>\n";
            }
        out << "</g>\n";
        // The legend, top right, one row per series.
        const int ly = kTop + 4 + 16 * legend_row++;
        out << "<g class=\"legend " << escape_html(s.css) << "\"><rect x=\"" << chart.width - 230
            << "\" y=\"" << ly - 6 << "\" width=\"10\" height=\"10\"/><text x=\""
            << chart.width - 215 << "\" y=\"" << ly + 3 << "\">" << escape_html(s.name)
            << "</text></g>\n";
    }
    out << "</svg>\n";
    return out.str();
}

}  // namespace optiml::report
