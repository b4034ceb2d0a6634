/* svg.h - the examples' tiny SVG writer: line plots (linear or log axes) and 2D drawings of
   chains, written with stdio only. Not part of ik.h; copy it if you like it.

   A picture is one file with one or more panels. A panel maps a data window onto a rectangle
   of the picture (svg_panel); everything drawn after it uses its data coordinates:

       svg s;
       if (svg_open(&s, dir, "plot.svg", 480, 320)) {
           svg_panel(&s, 0, 0, 480, 320, 0, 10, 1e-12, 1, SVG_LOGY);  // x 0..10, y log
           svg_axes(&s, "iteration", "error", "title");
           svg_line(&s, xs, ys, n, SVG_BLUE, 0);
           svg_close(&s);
       }

   The figure directory comes from the command line: svg_dir(argc, argv) returns the argument
   after "-o", or "build/figures". svg_open() prints the path it writes, or a notice when it
   cannot open the file (the directory must exist), and returns 0 then: pictures are optional. */
#ifndef IK_EXAMPLES_SVG_H
#define IK_EXAMPLES_SVG_H
#include <math.h>
#include <stdio.h>
#include <string.h>

#define SVG_LOGX  1
#define SVG_LOGY  2
#define SVG_EQUAL 4 // same scale on both axes (drawings); the window grows to fit the panel

// a palette that reads in colour and in grey
#define SVG_BLUE   "#1f77b4"
#define SVG_ORANGE "#ff7f0e"
#define SVG_GREEN  "#2ca02c"
#define SVG_RED    "#d62728"
#define SVG_PURPLE "#9467bd"
#define SVG_GREY   "#999999"
#define SVG_BLACK  "#222222"

typedef struct svg {
    FILE *f;
    double px, py, pw, ph;    // panel rectangle in pixels (plot area inside the margins)
    double x0, x1, y0, y1;    // data window (log10 of it on log axes)
    int flags, legend, panel; // panel: number of the current panel, for its clip path
} svg;

static inline const char *svg_dir(int argc, char **argv)
{
    int i;
    for (i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "-o") == 0)
            return argv[i + 1];
    return "build/figures";
}

static inline int svg_open(svg *s, const char *dir, const char *name, int width, int height)
{
    char path[1024];
    memset(s, 0, sizeof *s);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    s->f = fopen(path, "w");
    if (!s->f) {
        printf("(no picture: cannot write %s)\n", path);
        return 0;
    }
    printf("picture: %s\n", path);
    fprintf(s->f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            width, height, width, height);
    return 1;
}

static inline int svg_close(svg *s)
{
    int ok;
    fprintf(s->f, "</svg>\n");
    ok = ferror(s->f) == 0;
    return fclose(s->f) == 0 && ok;
}

static inline double svg__x(const svg *s, double x)
{
    if (s->flags & SVG_LOGX)
        x = log10(x > 1e-300 ? x : 1e-300);
    return s->px + (x - s->x0) / (s->x1 - s->x0) * s->pw;
}

static inline double svg__y(const svg *s, double y)
{
    if (s->flags & SVG_LOGY)
        y = log10(y > 1e-300 ? y : 1e-300);
    return s->py + s->ph - (y - s->y0) / (s->y1 - s->y0) * s->ph;
}

// The panel: the picture rectangle (left, top, width, height) in pixels, minus margins for the
// axes' labels, shows data x in [x0, x1], y in [y0, y1].
static inline void svg_panel(svg *s, double left, double top, double width, double height,
                             double x0, double x1, double y0, double y1, int flags)
{
    s->px = left + 58, s->py = top + 28, s->pw = width - 72, s->ph = height - 70;
    s->flags = flags, s->legend = 0;
    s->x0 = flags & SVG_LOGX ? log10(x0) : x0, s->x1 = flags & SVG_LOGX ? log10(x1) : x1;
    s->y0 = flags & SVG_LOGY ? log10(y0) : y0, s->y1 = flags & SVG_LOGY ? log10(y1) : y1;
    if (flags & SVG_EQUAL) { // widen the window so that one unit is as long on both axes
        double sx = (s->x1 - s->x0) / s->pw, sy = (s->y1 - s->y0) / s->ph;
        double cx = (s->x0 + s->x1) / 2, cy = (s->y0 + s->y1) / 2, k = sx > sy ? sx : sy;
        s->x0 = cx - k * s->pw / 2, s->x1 = cx + k * s->pw / 2;
        s->y0 = cy - k * s->ph / 2, s->y1 = cy + k * s->ph / 2;
    }
    fprintf(s->f,
            "<clipPath id=\"p%d\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
            "height=\"%.1f\"/></clipPath>\n",
            ++s->panel, s->px, s->py, s->pw, s->ph);
}

// Text at pixel position (x, y); anchor "start", "middle" or "end". No markup in text.
static inline void svg_text_px(svg *s, double x, double y, const char *anchor, const char *text)
{
    fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n", x, y, anchor, text);
}

// A frame around the panel, ticks (every decade on log axes), labels and a title.
static inline void svg_axes(svg *s, const char *xlabel, const char *ylabel, const char *title)
{
    int axis;
    char buf[32];
    fprintf(s->f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"#444\"/>\n",
            s->px, s->py, s->pw, s->ph);
    for (axis = 0; axis < 2; axis++) {
        int logaxis = s->flags & (axis ? SVG_LOGY : SVG_LOGX);
        double a = axis ? s->y0 : s->x0, b = axis ? s->y1 : s->x1, lo = a < b ? a : b;
        double hi = a < b ? b : a, step = 1, t;
        if (!logaxis) { // 1, 2 or 5 times a power of ten, about 5 ticks
            double raw = (hi - lo) / 5, p = pow(10, floor(log10(raw)));
            step = raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
        } else if (hi - lo > 10) {
            step = ceil((hi - lo) / 10);
        }
        for (t = ceil(lo / step - 1e-9) * step; t <= hi + 1e-9 * step; t += step) {
            double v = logaxis ? pow(10, t) : t, x, y;
            if (logaxis)
                snprintf(buf, sizeof buf, "1e%d", (int)floor(t + 0.5));
            else
                snprintf(buf, sizeof buf, "%g", fabs(t) < 1e-9 * step ? 0.0 : t);
            if (axis) {
                y = svg__y(s, v);
                fprintf(s->f, "<path d=\"M%.1f %.1fh%.1f\" stroke=\"#ddd\"/>\n", s->px, y, s->pw);
                svg_text_px(s, s->px - 5, y + 4, "end", buf);
            } else {
                x = svg__x(s, v);
                fprintf(s->f, "<path d=\"M%.1f %.1fv%.1f\" stroke=\"#ddd\"/>\n", x, s->py, s->ph);
                svg_text_px(s, x, s->py + s->ph + 16, "middle", buf);
            }
        }
    }
    svg_text_px(s, s->px + s->pw / 2, s->py + s->ph + 34, "middle", xlabel);
    fprintf(s->f,
            "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\">"
            "%s</text>\n",
            s->px - 44, s->py + s->ph / 2, ylabel);
    fprintf(s->f,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">%s"
            "</text>\n",
            s->px + s->pw / 2, s->py - 10, title);
}

// Only a title, for drawings (no axes).
static inline void svg_title(svg *s, const char *title)
{
    fprintf(s->f,
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-weight=\"bold\">%s"
            "</text>\n",
            s->px + s->pw / 2, s->py - 10, title);
}

// A polyline through n points (x[i], y[i]); dashed if dash. Points outside a log axis' range
// (zero or negative) are drawn at its bottom.
static inline void svg_line(svg *s, const double *x, const double *y, int n, const char *color,
                            int dash)
{
    double lu = 0, lv = 0;
    int i;
    fprintf(s->f,
            "<polyline clip-path=\"url(#p%d)\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s "
            "points=\"",
            s->panel, color, dash ? " stroke-dasharray=\"5 3\"" : "");
    for (i = 0; i < n; i++) { // points less than half a pixel from the last one are left out
        double u = svg__x(s, x[i]), v = svg__y(s, y[i]);
        if (i > 0 && i < n - 1 && fabs(u - lu) < 0.5 && fabs(v - lv) < 0.5)
            continue;
        fprintf(s->f, "%s%.1f,%.1f", i ? " " : "", u, v);
        lu = u, lv = v;
    }
    fprintf(s->f, "\"/>\n");
}

// A dot of radius r pixels; hollow if fill is 0.
static inline void svg_dot(svg *s, double x, double y, double r, const char *color, int fill)
{
    fprintf(s->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\" stroke=\"%s\"/>\n",
            svg__x(s, x), svg__y(s, y), r, fill ? color : "white", color);
}

// A chain drawn as bones between n joint positions (x[i], y[i]) with a dot at each joint.
static inline void svg_chain(svg *s, const double *x, const double *y, int n, const char *color)
{
    int i;
    svg_line(s, x, y, n, color, 0);
    for (i = 0; i < n; i++)
        svg_dot(s, x[i], y[i], i == n - 1 ? 3.5 : 2.5, color, i != n - 1);
}

// The next legend entry (top right of the panel): a short line in color and the label.
static inline void svg_legend(svg *s, const char *color, int dash, const char *label)
{
    double x = s->px + s->pw - 150, y = s->py + 16 + 16 * s->legend++;
    fprintf(
        s->f,
        "<rect x=\"%.1f\" y=\"%.1f\" width=\"148\" height=\"16\" fill=\"white\" "
        "fill-opacity=\"0.8\"/>\n<path d=\"M%.1f %.1fh22\" stroke=\"%s\" stroke-width=\"2\"%s/>\n",
        x - 2, y - 11, x, y - 4, color, dash ? " stroke-dasharray=\"5 3\"" : "");
    svg_text_px(s, x + 28, y, "start", label);
}

#endif // IK_EXAMPLES_SVG_H
