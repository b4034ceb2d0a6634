/* 12 a KUKA iiwa's elbow swivel: seven joints for a six-valued pose leave one free angle, the
   elbow's turn about the shoulder-wrist line. ik_chain_closed_form recognizes the iiwa's
   spherical shoulder and wrist (SRS), ik_closed_form_swivel_intervals says at which swivels each
   of the 8 answer branches has every joint within its limits, and ik_closed_form_solve_swivel
   gives the answers at one swivel. Look at: the current state found again at its own swivel
   (distance 0), every answer reaching the pose to about 1e-16 m and rad, and the current
   branch's intervals: the swivels the elbow can take without leaving the limits or the pose.
   Picture: iiwa_swivel.svg, the current branch's seven joint angles over the swivel (each as a
   fraction of its limit: +-1 at the limit), its intervals within the limits as a bar above.
   Usage: 12_iiwa_swivel [-o figure-dir] */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "../bench/arms.h"
#include "svg.h"

#define SWIVELS 361
#define PI      3.141592653589793
#define WITHIN  "#17becf" // the intervals' colour

// The largest FK error of answer s (position m, rotation rad) against target.
static double fk_error(const ik_chain *chain, const ik_closed_solution *s, ik_xform target)
{
    ik_xform fk;
    double e, r;
    ik_chain_fk(chain, s->q, NULL, &fk);
    e = (double)ik_vec3_length(ik_vec3_sub(fk.pos, target.pos));
    r = (double)ik_quat_to_axis_angle(ik_quat_mul(target.rot, ik_quat_conjugate(fk.rot)), NULL);
    return e > r ? e : r;
}

// Branch b's joint angles over the swivel (fractions of the limits; a gap where the branch has
// no answer) and its intervals, into the figure.
static void draw_figure(const char *dir, const ik_closed_form *cf, ik_xform target, int b,
                        const ik_swivel_interval *iv, int n, double now)
{
    static const char *colors[7] = { SVG_BLUE,   SVG_ORANGE, SVG_GREEN, SVG_RED,
                                     SVG_PURPLE, SVG_GREY,   SVG_BLACK };
    static double x[SWIVELS], y[7][SWIVELS];
    ik_closed_solution sol[8];
    ik_closed_info info;
    svg fig;
    int i, j, k;
    if (!svg_open(&fig, dir, "iiwa_swivel.svg", 720, 400))
        return;
    svg_panel(&fig, 0, 0, 720, 400, -PI, PI, -1.3, 1.3, 0);
    svg_axes(&fig, "swivel (rad)", "joint / its limit", "the current branch over the swivel");
    for (i = 0; i < SWIVELS; i++) {
        x[i] = -PI + 2 * PI * i / (SWIVELS - 1);
        for (j = 0; j < 7; j++)
            y[j][i] = 0;
        ik_closed_form_solve_swivel(cf, target, (ik_real)x[i], NULL, NULL, sol, 8, &info);
        for (k = 0; k < info.count; k++)
            for (j = 0; j < 7 && sol[k].branch == b; j++)
                y[j][i] = (double)(sol[k].q[j] / cf->hi[j]);
    }
    for (j = 0; j < 7; j++) {
        char label[16];
        snprintf(label, sizeof label, "joint %d", j + 1);
        svg_line(&fig, x, y[j], SWIVELS, colors[j], 0);
        svg_legend(&fig, colors[j], 0, label);
    }
    for (i = 0; i < n; i++) { // the intervals within the limits (wrapping ones in two parts)
        double lo = (double)iv[i].lo, hi = (double)iv[i].hi;
        double bx[2] = { lo, hi < PI ? hi : PI }, by[2] = { 1.15, 1.15 };
        double wx[2] = { -PI, hi - 2 * PI };
        if (iv[i].branch != b)
            continue;
        svg_line(&fig, bx, by, 2, WITHIN, 0);
        if (hi > PI)
            svg_line(&fig, wx, by, 2, WITHIN, 0);
    }
    svg_legend(&fig, WITHIN, 0, "within the limits");
    svg_dot(&fig, now, 1.15, 4, SVG_RED, 1); // (the current swivel)
    svg_close(&fig);
}

int main(int argc, char **argv)
{
    const ik_real q_now[7] = { 0.4, 0.7, -0.3, -1.2, 0.5, 0.9, 0.2 };
    arm_def iiwa;
    ik_closed_form cf;
    ik_closed_solution sol[8];
    ik_closed_info info;
    ik_swivel_interval iv[64];
    ik_xform target;
    ik_real now;
    const char *why;
    int n, i, b = -1;
    if (arm_build(ARM_IIWA14, &iiwa) != IK_OK ||
        ik_chain_closed_form(&iiwa.chain, &cf, &why) != IK_CLOSED_FORM_SRS)
        return 1;
    printf("KUKA iiwa 14: %s\n", why);
    ik_chain_fk(&iiwa.chain, q_now, NULL, &target);
    ik_closed_form_swivel(&cf, q_now, &now);
    // the answers at the current swivel: the current state among them
    ik_closed_form_solve_swivel(&cf, target, now, q_now, NULL, sol, 8, &info);
    printf("at the current swivel %.4f rad: %d answers, those within the limits first, nearest "
           "the current state first\n",
           (double)now, info.count);
    for (i = 0; i < info.count; i++) {
        printf("  branch %d: q = (%6.3f %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f)  %s  distance %.2g, "
               "FK error %.1e\n",
               sol[i].branch, (double)sol[i].q[0], (double)sol[i].q[1], (double)sol[i].q[2],
               (double)sol[i].q[3], (double)sol[i].q[4], (double)sol[i].q[5], (double)sol[i].q[6],
               sol[i].outside ? "outside" : "within ", (double)sol[i].distance,
               fk_error(&iiwa.chain, &sol[i], target));
    }
    b = info.count > 0 ? sol[0].branch : -1; // (the current state: distance 0)
    if (b < 0 || ik_closed_form_swivel_intervals(&cf, target, iv, 64, &n) != IK_OK)
        return 1;
    printf("swivel intervals within the limits (rad), by branch:\n");
    for (i = 0; i < n && i < 64; i++)
        printf("  branch %d%s: %7.4f .. %7.4f\n", iv[i].branch,
               iv[i].branch == b ? " (current)" : "", (double)iv[i].lo, (double)iv[i].hi);
    draw_figure(svg_dir(argc, argv), &cf, target, b, iv, n, (double)now);
    return 0;
}
