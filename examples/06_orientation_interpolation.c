/* 06 orientation interpolation between two poses: slerp of quaternions (ik_quat_slerp) and the
   single-axis form on rotation matrices (ik_mat3_interpolate_axis: R(s) = Rot(n, s theta) r0,
   where rg r0^T = Rot(n, theta)). A hand frame moves from one pose to another: its position by
   straight-line interpolation, its orientation both ways. Look at: the two forms give the same
   rotation at every s (to rounding), the angle from the start grows linearly (s theta, constant
   angular speed about one fixed axis), and the same holds for a pair 1e-3 rad short of a half
   turn and for a pair 1e-9 rad apart, where naive formulas lose their digits.
   Picture: orientation_interpolation.svg, the frame along the path (x red, y green, z blue; an
   oblique projection) and the difference between the two forms on a log axis.
   Usage: 06_orientation_interpolation [-o figure-dir] */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "svg.h"

#define N 16

// Largest entry of |a - b|.
static double mat_diff(ik_mat3 a, ik_mat3 b)
{
    double d = 0;
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++)
            d = fmax(d, fabs((double)a.m[r][c] - (double)b.m[r][c]));
    return d;
}

// Interpolates from q0 to qg both ways at s = k / N; diff[k] = the difference, returns false if
// they disagree or the angle from q0 is not s theta. Prints a few rows.
static int compare(const char *name, ik_quat q0, ik_quat qg, double diff[N + 1])
{
    ik_mat3 r0 = ik_quat_to_mat3(q0), rg = ik_quat_to_mat3(qg);
    double theta = (double)ik_quat_to_axis_angle(ik_quat_mul(qg, ik_quat_conjugate(q0)), NULL);
    double worst = 0, worst_angle = 0;
    int k;
    for (k = 0; k <= N; k++) {
        ik_real s = (ik_real)k / N;
        ik_mat3 a = ik_quat_to_mat3(ik_quat_slerp(q0, qg, s));
        ik_mat3 b = ik_mat3_interpolate_axis(r0, rg, s);
        ik_quat rel = ik_quat_mul(ik_quat_from_mat3(b), ik_quat_conjugate(q0));
        double angle = (double)ik_quat_to_axis_angle(rel, NULL);
        diff[k] = mat_diff(a, b);
        worst = fmax(worst, diff[k]);
        worst_angle = fmax(worst_angle, fabs(angle - (double)s * theta));
    }
    printf("%-26s theta = %.12f rad: largest |slerp - single axis| %.1e, "
           "largest |angle - s theta| %.1e\n",
           name, theta, worst, worst_angle);
    return worst < 1e3 * (double)IK_EPSILON && worst_angle < 1e5 * (double)IK_EPSILON;
}

int main(int argc, char **argv)
{
    const ik_vec3 p0 = ik_vec3_make(0, 0, 0), pg = ik_vec3_make(2, 1, IK_R(0.5));
    ik_quat q0 = ik_quat_from_axis_angle(ik_vec3_make(0, 0, 1), IK_R(0.3));
    ik_quat qg = ik_quat_mul(ik_quat_from_axis_angle(ik_vec3_make(1, 1, 0), IK_R(2.0)), q0);
    ik_quat near_pi =
        ik_quat_mul(ik_quat_from_axis_angle(ik_vec3_make(0, 1, 2), IK_R(3.14059)), q0);
    ik_quat tiny = ik_quat_mul(ik_quat_from_axis_angle(ik_vec3_make(1, 0, 0), IK_R(1e-9)), q0);
    double diff[3][N + 1], sk[N + 1];
    int ok = 1, k, a;
    svg fig;

    ok &= compare("two hand poses", q0, qg, diff[0]);
    ok &= compare("1e-3 rad short of pi", q0, near_pi, diff[1]);
    ok &= compare("1e-9 rad apart", q0, tiny, diff[2]);
    printf("the two forms %s\n", ok ? "agree" : "DISAGREE");

    if (svg_open(&fig, svg_dir(argc, argv), "orientation_interpolation.svg", 720, 360)) {
        static const char *axis_color[3] = { SVG_RED, SVG_GREEN, SVG_BLUE };
        svg_panel(&fig, 0, 0, 360, 360, -0.1, 2.9, -0.5, 1.5, SVG_EQUAL);
        svg_title(&fig, "a hand frame from one pose to another");
        for (k = 0; k <= N; k += 2) {
            ik_real s = (ik_real)k / N;
            ik_mat3 r = ik_mat3_interpolate_axis(ik_quat_to_mat3(q0), ik_quat_to_mat3(qg), s);
            ik_vec3 p = ik_vec3_lerp(p0, pg, s);
            for (a = 0; a < 3; a++) {
                ik_vec3 e =
                    ik_vec3_add_scaled(p, ik_vec3_make(r.m[0][a], r.m[1][a], r.m[2][a]), IK_R(0.5));
                // oblique projection: y goes back and up
                double x[2] = { (double)(p.x + IK_R(0.4) * p.y), (double)(e.x + IK_R(0.4) * e.y) };
                double y[2] = { (double)(p.z + IK_R(0.3) * p.y), (double)(e.z + IK_R(0.3) * e.y) };
                svg_line(&fig, x, y, 2, axis_color[a], 0);
            }
        }
        svg_panel(&fig, 360, 0, 360, 360, 0, 1, 1e-18, 1e-12, SVG_LOGY);
        svg_axes(&fig, "s", "largest |slerp - single axis|", "the two forms agree");
        for (k = 0; k <= N; k++) {
            sk[k] = (double)k / N;
            for (a = 0; a < 3; a++) // exact agreement (0) is off the axis
                svg_dot(&fig, sk[k], diff[a][k], 3,
                        a == 0   ? SVG_BLUE
                        : a == 1 ? SVG_ORANGE
                                 : SVG_GREEN,
                        a == 0);
        }
        svg_legend(&fig, SVG_BLUE, 0, "two hand poses");
        svg_legend(&fig, SVG_ORANGE, 0, "1e-3 short of pi");
        svg_legend(&fig, SVG_GREEN, 0, "1e-9 rad apart");
        svg_close(&fig);
    }
    return ok ? 0 : 1;
}
