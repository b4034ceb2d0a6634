/* 10 FABRIK, iteration by iteration, beside CCD and DLS. A planar chain of 6 hinges about z
   (links of length 1 along y at rest, each hinge limited to +-1.5 rad) starts folded and is asked
   to reach (2.5, 3.5). Each solver runs k iterations from the start (k = 1 .. 8; an iteration of
   FABRIK is a forward and a backward reaching pass, of CCD a sweep); FABRIK's points (out_points:
   every joint's pivot and the effector) are checked against ik_chain_fk of the state it writes
   back. The table gives the distance to the goal after k iterations, and whether every hinge is
   within its limits after each. Look at: from this folded start FABRIK gains more than a digit
   an iteration, CCD creeps, DLS stops on the limits (a local minimum of the active set); the
   limits hold after every iteration. Pictures: fabrik_passes.svg (the chain at its start and after iterations 1, 2, 3),
   fabrik_convergence.svg (the distance after each iteration, log axis).
   Usage: 10_fabrik [any] [-o figure-dir]   (default build/figures) */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "svg.h"
#include <stdlib.h>

#define LINKS      6
#define ITERATIONS 8

static unsigned char scratch[1 << 14];

// The chain: LINKS hinges about z, links of 1 along y, each within +-1.5 rad.
static ik_chain make_chain(ik_joint *joints)
{
    int i;
    for (i = 0; i < LINKS; i++) {
        joints[i] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, i == 0 ? 0 : 1, 0)),
                                      ik_vec3_make(0, 0, 1));
        joints[i].lo = IK_R(-1.5);
        joints[i].hi = IK_R(1.5);
    }
    return ik_chain_make(joints, LINKS, ik_xform_translation(ik_vec3_make(0, 1, 0)));
}

// The folded start: the hinges alternately 1.2 and -1.0 rad.
static void start(ik_real *q)
{
    int i;
    for (i = 0; i < LINKS; i++)
        q[i] = i % 2 ? IK_R(-1.0) : IK_R(1.2);
}

// k iterations of solver m (0 FABRIK, 1 CCD, 2 DLS) from q; FABRIK's points into points.
static void iterate(const ik_chain *chain, int m, int k, const ik_target *goal, ik_real *q,
                    ik_vec3 *points)
{
    ik_result r;
    if (m == 0) {
        ik_fabrik_opts o = ik_default_fabrik_opts();
        o.max_iterations = k;
        o.tolerance = 0;
        o.min_improvement = 0;
        r = ik_fabrik_solve(chain, goal, &o, q, scratch, sizeof scratch, NULL, points);
    } else if (m == 1) {
        ik_ccd_opts o = ik_default_ccd_opts();
        o.max_sweeps = k;
        o.tolerance = 0;
        r = ik_ccd_solve(chain, goal, &o, q, scratch, sizeof scratch, NULL);
    } else {
        ik_jacobian_opts o = ik_default_jacobian_opts();
        o.max_iterations = k;
        o.tolerance = 0;
        r = ik_jacobian_solve(chain, goal, &o, q, scratch, sizeof scratch, NULL);
    }
    if (r != IK_OK) {
        fprintf(stderr, "solver %d: %s\n", m, ik_result_string(r));
        exit(1);
    }
}

// The largest distance between FABRIK's points and the frames FK puts at q.
static double points_off(const ik_chain *chain, const ik_real *q, const ik_vec3 *points)
{
    ik_xform frames[LINKS], e;
    double worst = 0, d;
    int i;
    ik_chain_fk(chain, q, frames, &e);
    for (i = 0; i <= LINKS; i++) {
        d = (double)ik_vec3_length(ik_vec3_sub(points[i], i < LINKS ? frames[i].pos : e.pos));
        worst = d > worst ? d : worst;
    }
    return worst;
}

// The chain at q drawn in the figure.
static void draw(svg *s, const ik_chain *chain, const ik_real *q, const char *color)
{
    ik_xform frames[LINKS], e;
    double x[LINKS + 1], y[LINKS + 1];
    int i;
    ik_chain_fk(chain, q, frames, &e);
    for (i = 0; i < LINKS; i++)
        x[i] = (double)frames[i].pos.x, y[i] = (double)frames[i].pos.y;
    x[LINKS] = (double)e.pos.x, y[LINKS] = (double)e.pos.y;
    svg_chain(s, x, y, LINKS + 1, color);
}

int main(int argc, char **argv)
{
    static const char *names[3] = { "FABRIK", "CCD", "DLS" };
    static const char *colors[4] = { SVG_GREY, SVG_ORANGE, SVG_GREEN, SVG_BLUE };
    ik_joint joints[LINKS];
    ik_chain chain = make_chain(joints);
    ik_target goal = ik_target_position(ik_vec3_make(IK_R(2.5), IK_R(3.5), 0));
    ik_vec3 points[LINKS + 1];
    double err[3][ITERATIONS + 1], its[ITERATIONS + 1], worst_points = 0;
    ik_real q[LINKS], passes[4][LINKS];
    int m, k, i, held = 1;
    svg fig;
    for (m = 0; m < 3; m++)
        for (k = 0; k <= ITERATIONS; k++) {
            ik_xform e;
            start(q);
            if (k > 0)
                iterate(&chain, m, k, &goal, q, points);
            if (k > 0 && m == 0) {
                double off = points_off(&chain, q, points);
                worst_points = off > worst_points ? off : worst_points;
            }
            for (i = 0; i < LINKS; i++)
                held &= q[i] >= joints[i].lo && q[i] <= joints[i].hi;
            if (m == 0 && k < 4)
                for (i = 0; i < LINKS; i++)
                    passes[k][i] = q[i];
            ik_chain_fk(&chain, q, NULL, &e);
            err[m][k] = (double)ik_vec3_length(ik_vec3_sub(e.pos, goal.pos));
            its[k] = k;
        }
    printf("distance to (2.5, 3.5) after k iterations, 6 hinges within +-1.5 rad:\n");
    printf("iteration ");
    for (m = 0; m < 3; m++)
        printf(" %10s", names[m]);
    printf("\n");
    for (k = 0; k <= ITERATIONS; k++) {
        printf("%9d ", k);
        for (m = 0; m < 3; m++)
            printf(" %10.2e", err[m][k]);
        printf("\n");
    }
    printf("every hinge within its limits after every solve: %s\n", held ? "yes" : "no");
    printf("FABRIK's points against ik_chain_fk of the state written back: %.1e\n", worst_points);
    if (svg_open(&fig, svg_dir(argc, argv), "fabrik_passes.svg", 480, 480)) {
        static const char *labels[4] = { "start", "after iteration 1", "after iteration 2",
                                         "after iteration 3" };
        svg_panel(&fig, 0, 0, 480, 480, -3.5, 4, -1, 6.5, SVG_EQUAL);
        svg_axes(&fig, "x", "y", "FABRIK, 6 hinges within +-1.5 rad");
        for (k = 0; k < 4; k++)
            draw(&fig, &chain, passes[k], colors[k]);
        svg_dot(&fig, 2.5, 3.5, 5, SVG_RED, 0);
        for (k = 0; k < 4; k++)
            svg_legend(&fig, colors[k], 0, labels[k]);
        svg_legend(&fig, SVG_RED, 0, "goal (2.5, 3.5)");
        svg_close(&fig);
    }
    if (svg_open(&fig, svg_dir(argc, argv), "fabrik_convergence.svg", 480, 320)) {
        for (m = 0; m < 3; m++)
            for (k = 0; k <= ITERATIONS; k++)
                err[m][k] = err[m][k] > 1e-16 ? err[m][k] : 1e-16;
        svg_panel(&fig, 0, 0, 480, 320, 0, ITERATIONS, 1e-16, 10, SVG_LOGY);
        svg_axes(&fig, "iterations (CCD: sweeps)", "distance to the goal",
                 "FABRIK, CCD and DLS from the same start");
        for (m = 0; m < 3; m++) {
            svg_line(&fig, its, err[m], ITERATIONS + 1, colors[m + 1], 0);
            svg_legend(&fig, colors[m + 1], 0, names[m]);
        }
        svg_close(&fig);
    }
    return held && worst_points < 1e-9 ? 0 : 1;
}
