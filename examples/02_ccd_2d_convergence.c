/* 02 CCD convergence in 2D: the reference experiment of the tiny 2D CCD solver
   (shared/seeds/004), with ik_ccd_solve on a planar chain of z-axis hinges.
   n identical links of length 1 (along y at rest), a random start (angles uniform in
   [-pi, pi]), the goal (0.9, 0.75); the distance from the effector to the goal after each of the
   first 7 sweeps, for n = 3 and n = 20, each from its own random start, and over 100 random
   starts the median of each sweep's error. The reference printed, from its own random starts:
     n = 3:  1.7e-03 8.8e-05 4.7e-06 2.5e-07 1.3e-08 7.1e-10 3.8e-11
     n = 20: 1.5e-01 1.2e-04 8.5e-08 6.1e-11 4.5e-14 2.6e-15 2.5e-15
   Look at: the same linear (n = 3) and faster (n = 20) decay, down to rounding.
   Pictures: ccd_2d_convergence.svg (the medians on a log axis) and ccd_2d_sweeps.svg (a
   3-link chain at its start and after sweeps 1, 2, 3).
   Usage: 02_ccd_2d_convergence [-o figure-dir]   (default build/figures) */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "svg.h"
#include <stdlib.h>

#define MAXN   20
#define SWEEPS 7

static unsigned long long rng = 12345;
static double uniform(double lo, double hi)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// errors[s] = distance to the goal after s sweeps (s = 0: the start), from a random start; if
// draw is not NULL, the chain is drawn at its start and after sweeps 1 to 3
static void run(int n, double errors[SWEEPS + 1], svg *draw)
{
    static const char *colors[4] = { SVG_GREY, SVG_ORANGE, SVG_GREEN, SVG_BLUE };
    ik_joint joints[MAXN];
    ik_real q[MAXN];
    static unsigned char scratch[16384];  // at least ik_ccd_scratch_size(&chain)
    static unsigned char prepared[16384]; // at least ik_ccd_prepared_size(&chain)
    ik_chain chain;
    ik_target goal = ik_target_position(ik_vec3_make(IK_R(0.9), IK_R(0.75), 0));
    ik_ccd_opts opts = ik_default_ccd_opts();
    int i, s;
    for (i = 0; i < n; i++) {
        ik_vec3 offset = ik_vec3_make(0, i == 0 ? 0 : 1, 0);
        joints[i] = ik_joint_revolute(ik_xform_translation(offset), ik_vec3_make(0, 0, 1));
        q[i] = (ik_real)uniform(-3.141592653589793, 3.141592653589793);
    }
    chain = ik_chain_make(joints, n, ik_xform_translation(ik_vec3_make(0, 1, 0)));
    opts.max_sweeps = 1; // one sweep per call, to watch the error
    opts.tolerance = 0;
    // the same chain every call: checked and its frames built once
    if (ik_ccd_prepare(&chain, &opts, false, prepared, sizeof prepared) != IK_OK) {
        fprintf(stderr, "ik_ccd_prepare failed\n");
        exit(1);
    }
    for (s = 0; s <= SWEEPS; s++) {
        ik_xform frames[MAXN], e;
        double x[MAXN + 1], y[MAXN + 1];
        if (s > 0 &&
            ik_ccd_solve_prepared(prepared, &goal, q, scratch, sizeof scratch, NULL) != IK_OK) {
            fprintf(stderr, "ik_ccd_solve_prepared failed\n");
            exit(1);
        }
        ik_chain_fk(&chain, q, frames, &e);
        errors[s] = (double)ik_vec3_length(ik_vec3_sub(e.pos, goal.pos));
        if (draw && s < 4) {
            for (i = 0; i < n; i++)
                x[i] = (double)frames[i].pos.x, y[i] = (double)frames[i].pos.y;
            x[n] = (double)e.pos.x, y[n] = (double)e.pos.y;
            svg_chain(draw, x, y, n + 1, colors[s]);
        }
    }
}

int main(int argc, char **argv)
{
    static const char *labels[4] = { "start", "after sweep 1", "after sweep 2", "after sweep 3" };
    static const char *colors[4] = { SVG_GREY, SVG_ORANGE, SVG_GREEN, SVG_BLUE };
    int sizes[2] = { 3, 20 }, k, s, t;
    static double all[100][SWEEPS + 1];
    double med[2][SWEEPS + 1], sweep[SWEEPS + 1];
    svg fig;
    for (k = 0; k < 2; k++) {
        double e[SWEEPS + 1], col[100];
        run(sizes[k], e, NULL);
        printf("n = %-2d one start:   ", sizes[k]);
        for (s = 1; s <= SWEEPS; s++)
            printf(" %.1e", e[s]);
        for (t = 0; t < 100; t++)
            run(sizes[k], all[t], NULL);
        for (s = 0; s <= SWEEPS; s++) {
            for (t = 0; t < 100; t++)
                col[t] = all[t][s];
            qsort(col, 100, sizeof(double), cmp);
            med[k][s] = col[50];
        }
        printf("\nn = %-2d median of 100:", sizes[k]);
        for (s = 1; s <= SWEEPS; s++)
            printf(" %.1e", med[k][s]);
        printf("\n");
    }
    for (s = 0; s <= SWEEPS; s++)
        sweep[s] = s;
    if (svg_open(&fig, svg_dir(argc, argv), "ccd_2d_convergence.svg", 480, 320)) {
        svg_panel(&fig, 0, 0, 480, 320, 0, SWEEPS, 1e-16, 10, SVG_LOGY);
        svg_axes(&fig, "sweeps", "distance to the goal", "CCD in 2D: median of 100 starts");
        svg_line(&fig, sweep, med[0], SWEEPS + 1, SVG_BLUE, 0);
        svg_line(&fig, sweep, med[1], SWEEPS + 1, SVG_ORANGE, 0);
        svg_legend(&fig, SVG_BLUE, 0, "3 links");
        svg_legend(&fig, SVG_ORANGE, 0, "20 links");
        svg_close(&fig);
    }
    if (svg_open(&fig, svg_dir(argc, argv), "ccd_2d_sweeps.svg", 480, 480)) {
        double e[SWEEPS + 1];
        svg_panel(&fig, 0, 0, 480, 480, -1.2, 2.2, -1.2, 2.2, SVG_EQUAL);
        svg_axes(&fig, "x", "y", "CCD, 3 links: start and sweeps 1-3");
        rng = 777;
        run(3, e, &fig);
        svg_dot(&fig, 0.9, 0.75, 5, SVG_RED, 0);
        for (k = 0; k < 4; k++)
            svg_legend(&fig, colors[k], 0, labels[k]);
        svg_legend(&fig, SVG_RED, 0, "goal (0.9, 0.75)");
        svg_close(&fig);
    }
    return 0;
}
