/* 04 CCD versus the Jacobian transpose (Welman 1993, section 4.3), and the other Jacobian methods.
   A 7-DOF arm (KUKA iiwa-like: axes z y z y z y z, offsets 0.34, 0.4, 0.4, 0.126 m) is asked to
   move its flange to a position goal well inside its reach and to one near the edge. Each method
   runs one iteration (one CCD sweep) per call; the table gives the iterations until the position
   error is first below 10^-d m, d = 1 .. 6 ("-" if not within 5000), the time per iteration
   measured in this run, and their product for d = 3 and d = 6. Look at: the transpose method creeps
   (and more so near the edge of reach, where the arm is nearly singular), CCD gets the first
   digits fastest, the Gauss-Newton family (PINV, DLS, SDLS) gets all six digits in a few
   iterations. Picture: ccd_vs_jacobian.svg, the error after each iteration (log axes).
   Usage: 04_ccd_vs_jacobian_transpose [any: shorter timing runs] [-o figure-dir] */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "svg.h"
#include <time.h>

#define MAXIT 5000
static unsigned char scratch[1 << 14];

// One iteration of method m (0..3 Jacobian methods, 4 CCD) from q toward goal.
static void iterate(const ik_chain *chain, int m, ik_vec3 goal, ik_real *q)
{
    ik_target t = ik_target_position(goal);
    if (m == 4) {
        ik_ccd_opts o = ik_default_ccd_opts();
        o.max_sweeps = 1;
        o.tolerance = 0;
        ik_ccd_solve(chain, &t, &o, q, scratch, sizeof scratch, NULL);
    } else {
        ik_jacobian_opts o = ik_default_jacobian_opts();
        o.method = (ik_jacobian_method)m;
        o.max_iterations = 1;
        o.tolerance = 0;
        ik_jacobian_solve(chain, &t, &o, q, scratch, sizeof scratch, NULL);
    }
}

static double error_of(const ik_chain *chain, const ik_real *q, ik_vec3 goal)
{
    ik_xform e;
    ik_chain_fk(chain, q, NULL, &e);
    return (double)ik_vec3_length(ik_vec3_sub(goal, e.pos));
}

int main(int argc, char **argv)
{
    static const double off[7] = { 0.34, 0, 0.4, 0, 0.4, 0, 0.126 };
    const char *names[5] = { "DLS", "PINV (SVD)", "SDLS", "Jacobian transpose", "CCD" };
    const char *colors[5] = { SVG_BLUE, SVG_PURPLE, SVG_GREEN, SVG_ORANGE, SVG_RED };
    static double its[MAXIT + 1], errs[5][MAXIT + 1];
    int counts[5];
    svg fig;
    int drawing = svg_open(&fig, svg_dir(argc, argv), "ccd_vs_jacobian.svg", 720, 330);
    ik_joint joints[7];
    ik_chain chain;
    ik_vec3 goals[2];
    int i, g, m, d;
    for (i = 0; i < 7; i++)
        joints[i] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, 0, (ik_real)off[i])),
                                      i % 2 ? ik_vec3_make(0, 1, 0) : ik_vec3_make(0, 0, 1));
    chain = ik_chain_make(joints, 7, ik_xform_translation(ik_vec3_make(0, 0, IK_R(0.126))));
    {
        // from the shoulder (joint 1, 0.34 up) the flange reaches 0.4 + 0.4 + 0.126 + 0.126
        ik_vec3 shoulder = ik_vec3_make(0, 0, IK_R(0.34));
        ik_vec3 dir = ik_vec3_normalize(ik_vec3_make(IK_R(0.6), IK_R(0.4), IK_R(0.5)));
        goals[0] = ik_vec3_add_scaled(shoulder, dir, IK_R(0.55)); // well inside
        goals[1] = ik_vec3_add_scaled(shoulder, dir, IK_R(1.03)); // 98% of the reach
    }
    for (g = 0; g < 2; g++) {
        printf("\ngoal %s: %.3f m from the shoulder, reach 1.052 m\n",
               g ? "near the edge of reach" : "well inside reach", g ? 1.03 : 0.55);
        printf("| method             | iterations to 1e-1 .. 1e-6 m  | us/iter | us to 1e-3 | "
               "us to 1e-6 |\n");
        printf("|--------------------|-------------------------------|---------|------------|"
               "------------|\n");
        for (m = 0; m < 5; m++) {
            ik_real q[7] = { IK_R(0.2), IK_R(0.3), IK_R(-0.1), IK_R(-0.6), 0, IK_R(0.5), 0 };
            int first[7] = { -1, -1, -1, -1, -1, -1, -1 }, it;
            double per_iter;
            clock_t t0;
            for (it = 0; it <= MAXIT; it++) {
                double e = error_of(&chain, q, goals[g]);
                its[it] = it, errs[m][it] = e, counts[m] = it + 1;
                for (d = 1; d <= 6; d++)
                    if (first[d] < 0 && e < 1.0 / (d == 1   ? 10
                                                   : d == 2 ? 100
                                                   : d == 3 ? 1e3
                                                   : d == 4 ? 1e4
                                                   : d == 5 ? 1e5
                                                            : 1e6))
                        first[d] = it;
                if (first[6] >= 0 || it == MAXIT)
                    break;
                iterate(&chain, m, goals[g], q);
            }
            // time per iteration: repeat a short run from the same start
            {
                int reps = 0, k;
                t0 = clock();
                do {
                    ik_real qq[7] = {
                        IK_R(0.2), IK_R(0.3), IK_R(-0.1), IK_R(-0.6), 0, IK_R(0.5), 0
                    };
                    for (k = 0; k < 20; k++)
                        iterate(&chain, m, goals[g], qq);
                    reps++;
                } while (clock() - t0 < CLOCKS_PER_SEC / (argc > 1 ? 50 : 5));
                per_iter = (double)(clock() - t0) / CLOCKS_PER_SEC / (reps * 20) * 1e6;
            }
            printf("| %-18s |", names[m]);
            for (d = 1; d <= 6; d++)
                printf(first[d] < 0 ? "    -" : " %4d", first[d]);
            printf(" | %7.2f |", per_iter);
            for (d = 3; d <= 6; d += 3)
                printf(first[d] < 0 ? "          - |" : " %10.1f |", first[d] * per_iter);
            printf("\n");
        }
        if (drawing) {
            svg_panel(&fig, g * 360, 0, 360, 330, 1, MAXIT, 1e-7, 1, SVG_LOGX | SVG_LOGY);
            svg_axes(&fig, "iterations (sweeps for CCD)", "position error (m)",
                     g ? "goal near the edge of reach" : "goal well inside reach");
            for (m = 0; m < 5; m++) {
                svg_line(&fig, its + 1, errs[m] + 1, counts[m] - 1, colors[m], m == 4);
                svg_legend(&fig, colors[m], m == 4, names[m]);
            }
        }
    }
    return drawing && !svg_close(&fig);
}
