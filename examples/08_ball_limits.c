/* 08 ball-joint limits: a swing cone and a twist range (ik_ball_limit), and a path of rotations
   projected onto them (ik_ball_limit_project). A shoulder-like limit: the bone (the twist axis,
   z at rest) may tilt up to 70 degrees toward x and 35 degrees toward y, an elliptical cone
   between, and twist (roll about itself) from -30 to +45 degrees. A smooth loop of rotations
   leaves the cone across its narrow side, passes beyond its wide end (85 degrees toward x) and
   comes back in, while twisting +-80 degrees; each rotation is projected onto the nearest
   allowed one. Look at: rotations within come back unchanged, the others slide along the cone's
   boundary and their twist stops at the range's ends; every projected rotation is within
   (ik_ball_limit_contains), and no projected step is longer than the bound of docs/limits.md
   (1.75 / cos(swing / 2) times the input's step): no jump. The program checks both and returns
   1 if either fails.
   Picture: ball_limits.svg, the bone's tip on a unit sphere (the cone, the twist range, the
   input and the projected paths), the same in tan(swing / 4) coordinates, where the projection
   is the nearest point of an ellipse, and the twist along the path.
   Usage: 08_ball_limits [-o figure-dir] */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "svg.h"

#define N        120 // path steps (a closed loop)
#define PI       3.141592653589793
#define DEG      (PI / 180)
#define SWING_X  70 // the limit, degrees
#define SWING_Y  35
#define TWIST_LO (-30)
#define TWIST_HI 45
#define EL       30 // the view's elevation, degrees
#define INPUT    "#666666"
#define FAINT    "#c8c8c8"

// A rotation as the figure shows it: the bone's tip (r z), swing and twist angles (degrees),
// and tan(swing / 4) toward the bone's tilt (the swing's coordinates turned by 90 degrees).
typedef struct pose {
    double tip[3], swing, twist, tilt[2];
} pose;

static pose describe(ik_quat r)
{
    ik_quat swing, twist;
    ik_vec3 tip = ik_quat_rotate(r, ik_vec3_make(0, 0, 1));
    pose p;
    double k, w;
    ik_quat_swing_twist(r, ik_vec3_make(0, 0, 1), &swing, &twist);
    k = swing.w < 0 ? -1 : 1, w = k * (double)swing.w; // (q and -q: the same rotation)
    p.tip[0] = (double)tip.x, p.tip[1] = (double)tip.y, p.tip[2] = (double)tip.z;
    p.swing = 2 * acos(w < 1 ? w : 1) / DEG;
    p.twist = 2 * atan2((twist.w < 0 ? -1 : 1) * (double)twist.z, fabs((double)twist.w)) / DEG;
    p.tilt[0] = k * (double)swing.y / (1 + w), p.tilt[1] = -k * (double)swing.x / (1 + w);
    return p;
}

// The direction whose swing has tan(swing / 4) coordinates (tx, ty) toward the tilt.
static void tilt_to_tip(double tx, double ty, double tip[3])
{
    double m = sqrt(tx * tx + ty * ty), s = 4 * atan(m);
    tip[0] = m > 0 ? sin(s) * tx / m : 0, tip[1] = m > 0 ? sin(s) * ty / m : 0, tip[2] = cos(s);
}

// The view: a point's screen coordinates (orthographic, seen from azimuth -60 degrees and
// elevation EL) and whether it is on the viewer's side of the sphere.
static int view(const double p[3], double *u, double *v)
{
    const double ca = cos(-60 * DEG), sa = sin(-60 * DEG), ce = cos(EL * DEG), se = sin(EL * DEG);
    *u = -sa * p[0] + ca * p[1];
    *v = -se * ca * p[0] - se * sa * p[1] + ce * p[2];
    return ce * ca * p[0] + ce * sa * p[1] + se * p[2] >= -1e-9;
}

// A curve through n points in 3D; its parts behind the sphere in colour behind (NULL: hidden).
static void curve3d(svg *s, double (*p)[3], int n, const char *color, const char *behind, int dash)
{
    double u[N + 1], v[N + 1];
    int i, start = 0, front = view(p[0], &u[0], &v[0]);
    for (i = 1; i <= n; i++) { // runs of equal visibility, each drawn up to the next one's start
        int f = i < n ? view(p[i], &u[i], &v[i]) : !front;
        if (f != front && (front || behind))
            svg_line(s, u + start, v + start, i - start + (i < n), front ? color : behind, dash);
        if (f != front)
            start = i, front = f;
    }
}

// A filled polygon through n points (u[i], v[i]), no outline.
static void fill(svg *s, const double *u, const double *v, int n, const char *color)
{
    int i;
    fprintf(s->f, "<polygon fill=\"%s\" fill-opacity=\"0.2\" points=\"", color);
    for (i = 0; i < n; i++)
        fprintf(s->f, "%s%.1f,%.1f", i ? " " : "", svg__x(s, u[i]), svg__y(s, v[i]));
    fprintf(s->f, "\"/>\n");
}

static void text3d(svg *s, double x, double y, double z, const char *anchor, const char *text)
{
    double p[3] = { x, y, z }, u, v;
    view(p, &u, &v);
    svg_text_px(s, svg__x(s, u), svg__y(s, v), anchor, text);
}

// Lines from each k-th input's point to its projection's, where they differ.
static void chords(svg *s, const pose *in, const pose *out, int plane)
{
    int k;
    fprintf(s->f, "<g opacity=\"0.6\">\n");
    for (k = 0; k <= N; k += 6) {
        double p[2][3], x[2] = { in[k].tilt[0], out[k].tilt[0] };
        double y[2] = { in[k].tilt[1], out[k].tilt[1] };
        if (memcmp(in[k].tip, out[k].tip, sizeof in[k].tip) == 0)
            continue;
        memcpy(p[0], in[k].tip, sizeof p[0]), memcpy(p[1], out[k].tip, sizeof p[1]);
        if (plane)
            svg_line(s, x, y, 2, SVG_GREY, 0);
        else
            curve3d(s, p, 2, SVG_GREY, SVG_GREY, 0);
    }
    fprintf(s->f, "</g>\n");
}

// The path of the bone's tip on the sphere.
static void path3d(svg *s, const pose *poses, const char *color, const char *behind, int dash)
{
    static double p[N + 1][3];
    int k;
    for (k = 0; k <= N; k++)
        memcpy(p[k], poses[k].tip, sizeof p[k]);
    curve3d(s, p, N + 1, color, behind, dash);
}

// Steps 30, 60 and 90 numbered beside the input path (as the twist panel counts them).
static void step_numbers(svg *s, const pose *in, int plane)
{
    int k;
    for (k = N / 4; k < N; k += N / 4) {
        char step[16];
        double u = 1.2 * in[k].tilt[0], v = 1.2 * in[k].tilt[1];
        snprintf(step, sizeof step, "%d", k);
        if (!plane)
            text3d(s, 1.1 * in[k].tip[0], 1.1 * in[k].tip[1], 1.1 * in[k].tip[2], "middle", step);
        else
            svg_text_px(s, svg__x(s, u), svg__y(s, v) + 4, "middle", step);
    }
}

// The shaded unit sphere with a grid (circles of swing 30, 60, 90 degrees, meridians every 45)
// and the axes' directions in a corner.
static void draw_ball(svg *s)
{
    static double p[N + 1][3];
    int k, i;
    fprintf(s->f,
            "<defs><radialGradient id=\"ball\" cx=\"0.4\" cy=\"0.35\" r=\"0.7\"><stop "
            "offset=\"0\" stop-color=\"#ffffff\"/><stop offset=\"1\" stop-color=\"#d8d8d8\"/>"
            "</radialGradient></defs>\n<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" "
            "fill=\"url(#ball)\" stroke=\"#aaaaaa\"/>\n<g opacity=\"0.4\">\n",
            svg__x(s, 0), svg__y(s, 0), svg__x(s, 1) - svg__x(s, 0));
    for (i = 0; i < 7; i++) {
        for (k = 0; k <= N; k++) {
            double t = 2 * PI * k / N, m = i < 3 ? (i + 1) * 30 * DEG : t, f = (i - 3) * 45 * DEG;
            p[k][0] = i < 3 ? sin(m) * cos(t) : sin(m) * cos(f);
            p[k][1] = i < 3 ? sin(m) * sin(t) : sin(m) * sin(f);
            p[k][2] = cos(m);
        }
        curve3d(s, p, N + 1, "#ffffff", NULL, 0);
    }
    fprintf(s->f, "</g>\n");
    for (i = 0; i < 3; i++) {
        double e[3] = { 0, 0, 0 }, x[2] = { -1.0, 0 }, y[2] = { -0.8, 0 }, u, v;
        e[i] = 1;
        view(e, &u, &v);
        x[1] = x[0] + 0.2 * u, y[1] = y[0] + 0.2 * v;
        svg_line(s, x, y, 2, "#888888", 0);
        svg_text_px(s, svg__x(s, x[0] + 0.29 * u), svg__y(s, y[0] + 0.29 * v) + 4, "middle",
                    i == 0   ? "x"
                    : i == 1 ? "y"
                             : "z");
    }
}

// Panel 1: the unit sphere about the joint, the cone and twist range, the bone's tip.
static void draw_sphere(svg *s, const pose *in, const pose *out)
{
    static double p[N + 2][3], u[N + 2], v[N + 2];
    const double a = tan(SWING_X * DEG / 4), b = tan(SWING_Y * DEG / 4);
    int k, low = 0;
    svg_panel(s, 0, 0, 440, 440, -1.1, 1.1, -1.02, 1.42, SVG_EQUAL);
    svg_title(s, "the bone's tip on a unit sphere");
    draw_ball(s);
    for (k = 0; k <= N; k++) { // the cone's boundary on the sphere
        tilt_to_tip(a * cos(2 * PI * k / N), b * sin(2 * PI * k / N), p[k]);
        view(p[k], &u[k], &v[k]);
    }
    fill(s, u, v, N + 1, SVG_BLUE);
    curve3d(s, p, N + 1, SVG_BLUE, "#aec7e8", 0);
    text3d(s, -sin(SWING_X * DEG) * 1.05, 0, cos(SWING_X * DEG) * 1.05, "end", "allowed cone");
    for (k = 0; k <= N + 1; k++) { // the twist range: a fan about the bone, above the sphere
        double t = (TWIST_LO + (TWIST_HI - TWIST_LO) * (double)k / N) * DEG;
        p[k][0] = k <= N ? 0.45 * cos(t) : 0, p[k][1] = k <= N ? 0.45 * sin(t) : 0;
        p[k][2] = 1.22;
        view(p[k], &u[k], &v[k]);
    }
    fill(s, u, v, N + 2, SVG_BLUE);
    curve3d(s, p, N + 1, SVG_BLUE, SVG_BLUE, 0);
    text3d(s, 0.5, 0, 1.22, "start", "twist range -30..45&#176;");
    p[0][0] = p[0][1] = p[0][2] = 0, p[1][0] = p[1][1] = 0, p[1][2] = 1.35;
    curve3d(s, p, 2, SVG_BLACK, SVG_BLACK, 0);
    text3d(s, 0, 0, 1.38, "middle", "rest bone = twist axis");
    view(p[1], &u[0], &v[0]); // (the rest bone's tip on the sphere)
    fprintf(s->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", svg__x(s, 0),
            svg__y(s, v[0] / 1.35), SVG_BLACK);
    path3d(s, in, INPUT, FAINT, 1);
    path3d(s, out, SVG_ORANGE, "#ffbb78", 0);
    chords(s, in, out, 0);
    step_numbers(s, in, 0);
    for (k = 0; k <= N; k++) // the input path's label below its lowest point in view
        if (view(in[k].tip, &u[k], &v[k]) && v[k] < v[low])
            low = k;
    svg_text_px(s, svg__x(s, u[low]), svg__y(s, v[low]) + 18, "middle", "input path");
    text3d(s, out[N / 2 - 12].tip[0], out[N / 2 - 12].tip[1], out[N / 2 - 12].tip[2] + 0.1, "start",
           "projected");
}

// Panel 2: the same in the swing's tan(swing / 4) coordinates (turned toward the tilt).
static void draw_plane(svg *s, const pose *in, const pose *out)
{
    static double u[N + 1], v[N + 1];
    const double a = tan(SWING_X * DEG / 4), b = tan(SWING_Y * DEG / 4);
    int k, i;
    svg_panel(s, 440, 0, 280, 400, -0.45, 0.45, -0.45, 0.45, SVG_EQUAL);
    svg_axes(s, "tan(swing / 4) toward x", "tan(swing / 4) toward y",
             "in tan(swing / 4) coordinates");
    for (i = 1; i <= 2; i++) { // circles of swing 45 and 90 degrees
        double r = tan(i * 45 * DEG / 4);
        for (k = 0; k <= N; k++)
            u[k] = r * cos(2 * PI * k / N), v[k] = r * sin(2 * PI * k / N);
        svg_line(s, u, v, N + 1, "#dddddd", 0);
        svg_text_px(s, svg__x(s, -0.7 * r), svg__y(s, -0.7 * r) + 12, "end",
                    i == 1 ? "45&#176;" : "swing 90&#176;");
    }
    for (k = 0; k <= N; k++)
        u[k] = a * cos(2 * PI * k / N), v[k] = b * sin(2 * PI * k / N);
    fill(s, u, v, N + 1, SVG_BLUE);
    svg_line(s, u, v, N + 1, SVG_BLUE, 0);
    for (k = 0; k <= N; k++)
        u[k] = in[k].tilt[0], v[k] = in[k].tilt[1];
    svg_line(s, u, v, N + 1, INPUT, 1);
    for (k = 0; k <= N; k++)
        u[k] = out[k].tilt[0], v[k] = out[k].tilt[1];
    svg_line(s, u, v, N + 1, SVG_ORANGE, 0);
    chords(s, in, out, 1);
    step_numbers(s, in, 1);
    svg_legend(s, SVG_BLUE, 0, "allowed cone");
    svg_legend(s, INPUT, 1, "input");
    svg_legend(s, SVG_ORANGE, 0, "projected");
    svg_legend(s, SVG_GREY, 0, "input to projection");
}

// Panel 3: the twist along the path, the range shaded.
static void draw_twist(svg *s, const pose *in, const pose *out)
{
    static double u[N + 1], v[N + 1];
    int k;
    svg_panel(s, 720, 0, 280, 400, 0, N, -90, 90, 0);
    fprintf(s->f,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
            "fill-opacity=\"0.2\"/>\n",
            s->px, svg__y(s, TWIST_HI), s->pw, svg__y(s, TWIST_LO) - svg__y(s, TWIST_HI), SVG_BLUE);
    svg_axes(s, "path step", "twist (degrees)", "the twist along the path");
    for (k = 0; k <= N; k++)
        u[k] = k, v[k] = in[k].twist;
    svg_line(s, u, v, N + 1, INPUT, 1);
    for (k = 0; k <= N; k++)
        v[k] = out[k].twist;
    svg_line(s, u, v, N + 1, SVG_ORANGE, 0);
    svg_legend(s, SVG_BLUE, 0, "twist range -30..45&#176;");
    svg_legend(s, INPUT, 1, "input");
    svg_legend(s, SVG_ORANGE, 0, "projected");
}

// The path, each rotation projected and checked; returns the number of failed checks.
static int follow_path(const ik_ball_limit *limit, pose *in, pose *out)
{
    const ik_vec3 z = ik_vec3_make(0, 0, 1);
    const double c = cos(55 * DEG), s = sin(55 * DEG);
    ik_quat prev_in = ik_quat_identity(), prev_out = prev_in;
    double worst = 0;
    int k, failures = 0;
    printf(" step | input: swing  twist  within | projected: swing  twist  within\n");
    for (k = 0; k <= N; k++) {
        // the bone round a circle of 55 degrees about a direction tilted 30 degrees toward x,
        // twisting +-80 degrees
        double t = 2 * PI * k / N, cu = -cos(t), su = -sin(t);
        ik_vec3 dir = ik_vec3_make((ik_real)(c * 0.5 + s * cu * 0.8660), (ik_real)(s * su),
                                   (ik_real)(c * 0.8660 - s * cu * 0.5));
        ik_quat r = ik_quat_mul(ik_quat_from_two_vectors(z, dir),
                                ik_quat_from_axis_angle(z, (ik_real)(80 * DEG * sin(t))));
        ik_quat p = ik_ball_limit_project(limit, r);
        int inside = ik_ball_limit_contains(limit, r), within = ik_ball_limit_contains(limit, p);
        int ok = within;
        in[k] = describe(r), out[k] = describe(p);
        if (inside && memcmp(&p, &r, sizeof p) != 0)
            ok = 0;  // within: returned to the bit
        if (k > 0) { // the projected step against the bound of docs/limits.md
            ik_real step = ik_quat_to_axis_angle(ik_quat_mul(ik_quat_conjugate(prev_in), r), NULL);
            ik_real moved =
                ik_quat_to_axis_angle(ik_quat_mul(ik_quat_conjugate(prev_out), p), NULL);
            double swing = fmax(in[k].swing, in[k - 1].swing);
            double ratio = (double)moved / (double)step * cos(swing * DEG / 2);
            worst = fmax(worst, ratio);
            ok &= ratio <= 1.75;
        }
        failures += !ok;
        prev_in = r, prev_out = p;
        if (k % 10 == 0 || !ok)
            printf(" %4d | %12.1f %6.1f %7s | %16.1f %6.1f %7s%s\n", k, in[k].swing, in[k].twist,
                   inside ? "yes" : "no", out[k].swing, out[k].twist, within ? "yes" : "NO",
                   ok ? "" : "  <- FAILED");
    }
    printf("largest projected step / input step, times cos(swing / 2): %.3f (bound 1.75)\n", worst);
    return failures;
}

int main(int argc, char **argv)
{
    static pose in[N + 1], out[N + 1];
    ik_ball_limit limit;
    int failures;
    svg fig;
    if (ik_ball_limit_make(ik_vec3_make(0, 0, 1), ik_vec3_make(1, 0, 0), (ik_real)(SWING_X * DEG),
                           (ik_real)(SWING_Y * DEG), (ik_real)(TWIST_LO * DEG),
                           (ik_real)(TWIST_HI * DEG), &limit) != IK_OK)
        return 1;
    failures = follow_path(&limit, in, out);
    printf("%s\n", failures ? "FAILED: a projected rotation outside the limit, or a jump"
                            : "every projected rotation within the limit, no jump");
    if (svg_open(&fig, svg_dir(argc, argv), "ball_limits.svg", 1000, 400)) {
        draw_sphere(&fig, in, out);
        draw_plane(&fig, in, out);
        draw_twist(&fig, in, out);
        svg_close(&fig);
    }
    return failures ? 1 : 0;
}
