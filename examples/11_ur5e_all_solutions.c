/* 11 every solution of a UR5e for one tool pose: the arm built from Universal Robots' classic DH
   table, ik_chain_closed_form recognizes its three parallel axes (2, 3, 4), and
   ik_closed_form_solve lists its 8 answers (shoulder left or right, wrist flipped or not, elbow up
   or down), nearest the current state first, with their whole-turn equivalents within the
   +-2 pi limits counted (512 listings). Each answer is checked by forward kinematics. Look at:
   8 answers, each reaching the pose to about 1e-16 m and rad; the current state (answer 1)
   found again at distance 0.
   Picture: ur5e_all_solutions.svg, the 8 arms reaching the same tool pose (side and top view).
   Usage: 11_ur5e_all_solutions [-o figure-dir] */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include "svg.h"

#define PI 3.141592653589793

// The answers' arms (joint positions draw[answer][x y z][k]) from the side and from above.
static void draw_figure(const char *dir, double (*draw)[3][8], int shown)
{
    static const char *colors[5] = { SVG_BLUE, SVG_ORANGE, SVG_GREEN, SVG_RED, SVG_PURPLE };
    svg fig;
    int i, k, v;
    if (svg_open(&fig, dir, "ur5e_all_solutions.svg", 720, 380)) {
        for (v = 0; v < 2; v++) { // side view (x, z), top view (x, y)
            svg_panel(&fig, v * 360, 0, 360, 380, -1.0, 1.0, v ? -1.0 : -0.6, v ? 1.0 : 1.2,
                      SVG_EQUAL);
            svg_axes(&fig, "x (m)", v ? "y (m)" : "z (m)", v ? "from above" : "from the side");
            for (i = 0; i < shown; i++) {
                char label[32];
                snprintf(label, sizeof label, "answer %d", i + 1);
                // (answers 6 to 8 dashed, in the first three colours)
                svg_line(&fig, draw[i][0], draw[i][v ? 1 : 2], 8, colors[i % 5], i >= 5);
                for (k = 0; k < 8; k++)
                    svg_dot(&fig, draw[i][0][k], draw[i][v ? 1 : 2][k], k == 7 ? 3.5 : 2.5,
                            colors[i % 5], k != 7);
                if (v == 0)
                    svg_legend(&fig, colors[i % 5], i >= 5, label);
            }
        }
        svg_close(&fig);
    }
}

int main(int argc, char **argv)
{
    // a, alpha, d (classic DH; theta 0), limits +-2 pi
    static const double dh[6][3] = { { 0, PI / 2, 0.1625 },  { -0.425, 0, 0 },
                                     { -0.3922, 0, 0 },      { 0, PI / 2, 0.1333 },
                                     { 0, -PI / 2, 0.0997 }, { 0, 0, 0.0996 } };
    static const double now[6] = { 0.4, -1.2, 1.5, -1.9, -1.5, 0.3 }; // the current state
    static double draw[8][3][8]; // [answer][x y z][base, joint origins, tool]
    ik_dh_row rows[6];
    ik_joint joints[6];
    ik_xform tip, goal, frames[6], tool;
    ik_chain arm;
    ik_closed_form cf;
    static ik_closed_solution all[512];
    ik_closed_solution sol[8];
    ik_closed_info info;
    ik_real q[6];
    const char *why;
    int i, k, v, shown = 0, failures = 0, count = 0, seen = 0;

    for (i = 0; i < 6; i++) {
        ik_dh_row r = { IK_JOINT_REVOLUTE, 0, 0, 0, 0, 0, 0 };
        r.a = (ik_real)dh[i][0], r.alpha = (ik_real)dh[i][1], r.d = (ik_real)dh[i][2];
        r.lo = (ik_real)(-2 * PI), r.hi = (ik_real)(2 * PI);
        rows[i] = r;
    }
    if (ik_joints_from_dh(rows, 6, IK_DH_CLASSIC, joints, &tip) != IK_OK)
        return 1;
    arm = ik_chain_make(joints, 6, tip);
    if (ik_chain_closed_form(&arm, &cf, &why) == IK_CLOSED_FORM_NONE)
        return 1;
    printf("UR5e: %s\n", why);
    for (k = 0; k < 6; k++)
        q[k] = (ik_real)now[k];
    ik_chain_fk(&arm, q, NULL, &goal);
    // every listing (each answer with its whole-turn equivalents), nearest first: keep each
    // answer's first
    if (ik_closed_form_solve(&cf, goal, q, NULL, all, 512, &info) != IK_OK)
        return 1;
    for (i = 0; i < info.count && count < 8; i++)
        if (!(seen & (1 << all[i].branch))) {
            seen |= 1 << all[i].branch;
            sol[count++] = all[i];
        }
    printf("tool at (%.3f, %.3f, %.3f) m: %d answers, %d listings within the limits, status %s\n",
           (double)goal.pos.x, (double)goal.pos.y, (double)goal.pos.z, info.branches, info.total,
           ik_status_string(info.status));
    printf("| # | q1..q6 (rad)                                  | distance | position err | "
           "angle err |\n");
    for (i = 0; i < count; i++) {
        double pos_err, ang_err;
        ik_chain_fk(&arm, sol[i].q, frames, &tool);
        pos_err = (double)ik_vec3_length(ik_vec3_sub(tool.pos, goal.pos));
        ang_err =
            (double)ik_quat_to_axis_angle(ik_quat_mul(goal.rot, ik_quat_conjugate(tool.rot)), NULL);
        printf("| %d | %6.3f %6.3f %6.3f %6.3f %6.3f %6.3f | %8.3f | %12.1e | %9.1e |\n", i + 1,
               (double)sol[i].q[0], (double)sol[i].q[1], (double)sol[i].q[2], (double)sol[i].q[3],
               (double)sol[i].q[4], (double)sol[i].q[5], (double)sol[i].distance, pos_err, ang_err);
        // (256 epsilon: 6e-14 in double, 3e-5 in float)
        if (pos_err > (double)(256 * IK_EPSILON) || ang_err > (double)(256 * IK_EPSILON) ||
            !(sol[i].flags & IK_CLOSED_WITHIN_LIMITS))
            failures++;
        for (v = 0; v < 3; v++) {
            draw[i][v][0] = 0;
            for (k = 0; k < 6; k++)
                draw[i][v][k + 1] = (double)(&frames[k].pos.x)[v];
            draw[i][v][7] = (double)(&tool.pos.x)[v];
        }
        shown++;
    }
    printf("%d answers reach the pose (checked by FK)\n", shown - failures);

    draw_figure(svg_dir(argc, argv), draw, shown);
    return failures || shown != 8 ? 1 : 0;
}
