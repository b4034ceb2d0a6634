/* Long-run stability: N consecutive small tracking solves, each starting from the last answer,
   on a 5-ball-joint chain (ik_jacobian_solve with exponential maps, and ik_ccd_solve) and on a
   7-DOF arm (ik_jacobian_solve, pose targets). The targets follow a smooth path that the chain
   can reach (forward kinematics of a slowly winding joint path), for many turns. Checked after
   every solve: IK_OK, no NaN, exponential maps within pi (the reparameterization works), limits
   held. Reported: the drift of unit quaternions and bone lengths in the FK frames, the largest
   joint value, the worst and mean tracking error.
   Usage: stability [N]   (default 20000: what make test runs; make stability runs 10^6) */
#define IK_IMPLEMENTATION
#include "../ik.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define NJ 7
static unsigned char scratch[1 << 14];

typedef struct result {
    int bad;            // solves that failed a check
    double quat_drift;  // max ||rot|^2 - 1| over all FK frames
    double bone_drift;  // max relative change of the distance between consecutive frames
    double max_q;       // largest |joint value| (|v| for ball joints)
    double worst, mean; // tracking error after each solve, relative to the chain's length
    int converged;      // solves with IK_STATUS_CONVERGED
} result;

static int finite_d(double x) // (by the bits: -ffast-math may fold x - x == 0 to true)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return (b & 0x7fffffffffffffffull) < 0x7ff0000000000000ull;
}

// The chains: 0, 1: five ball joints, links of 0.3 along z; 2: a 7-DOF arm (iiwa-like).
static ik_chain make_chain(int kind, ik_joint *j, double *bones, double *len)
{
    static const double arm_off[NJ] = { 0, 0.34, 0, 0.4, 0, 0.4, 0 };
    int i, n = kind == 2 ? 7 : 5;
    *len = 0;
    for (i = 0; i < n; i++) {
        double off = kind == 2 ? arm_off[i] : (i == 0 ? 0 : 0.3);
        ik_xform o = ik_xform_translation(ik_vec3_make(0, 0, (ik_real)off));
        if (kind == 2) {
            j[i] = ik_joint_revolute(o, i % 2 ? ik_vec3_make(0, 1, 0) : ik_vec3_make(0, 0, 1));
            j[i].lo = IK_R(-2.9);
            j[i].hi = IK_R(2.9);
        } else {
            j[i] = ik_joint_ball(o);
        }
        bones[i] = off;
        *len += off;
    }
    bones[n] = kind == 2 ? 0.126 : 0.3;
    *len += bones[n];
    return ik_chain_make(j, n, ik_xform_translation(ik_vec3_make(0, 0, (ik_real)bones[n])));
}

// The joint path whose FK gives the targets: slow sinusoids; the ball chain's first joint keeps
// turning about z, so its exponential map has to be reparameterized again and again.
static void path(int kind, int dof, double s, ik_real *q)
{
    int i;
    for (i = 0; i < dof; i++)
        q[i] = (ik_real)(0.6 * sin(s * (0.7 + 0.13 * i) + i));
    if (kind != 2)
        q[2] = (ik_real)(fmod(s, 2 * 3.14159265358979323846) - 3.14159265358979323846);
}

static result run(int kind, long n)
{
    ik_joint j[NJ];
    double bones[NJ + 1], len;
    ik_chain c = make_chain(kind, j, bones, &len);
    int dof = ik_chain_dof(&c), i;
    ik_real q[3 * NJ], qp[3 * NJ];
    ik_jacobian_opts jo = ik_default_jacobian_opts();
    ik_ccd_opts co = ik_default_ccd_opts();
    result res = { 0, 0, 0, 0, 0, 0, 0 };
    long k;
    double sum = 0;
    static const ik_real rest[3 * NJ] = { 0 };
    jo.max_iterations = 20;
    co.max_sweeps = 20;
    if (kind == 2)
        jo.rest = rest; // a redundant arm drifts into its limits without a pull toward a rest pose
    path(kind, dof, 0, q);
    for (k = 0; k < n; k++) {
        ik_xform goal = ik_xform_identity(), frames[NJ], eff;
        ik_target t;
        ik_solve_info info;
        ik_result r;
        double err;
        path(kind, dof, 1e-3 * (double)(k + 1), qp);
        ik_chain_fk(&c, qp, NULL, &goal);
        t = kind == 2 ? ik_target_pose(goal) : ik_target_position(goal.pos);
        if (kind == 1)
            r = ik_ccd_solve(&c, &t, &co, q, scratch, sizeof scratch, &info);
        else
            r = ik_jacobian_solve(&c, &t, &jo, q, scratch, sizeof scratch, &info);
        if (r != IK_OK) {
            res.bad++;
            continue;
        }
        for (i = 0; i < dof; i++)
            if (!finite_d((double)q[i]))
                res.bad++;
        if (ik_chain_fk(&c, q, frames, &eff) != IK_OK) {
            res.bad++;
            continue;
        }
        for (i = 0; i < c.joint_count; i++) {
            ik_quat f = frames[i].rot;
            double d2 = (double)ik_quat_dot(f, f) - 1, bl;
            ik_vec3 next = i + 1 < c.joint_count ? frames[i + 1].pos : eff.pos;
            d2 = d2 < 0 ? -d2 : d2;
            res.quat_drift = d2 > res.quat_drift ? d2 : res.quat_drift;
            bl = (double)ik_vec3_length(ik_vec3_sub(next, frames[i].pos));
            bl = fabs(bl - bones[i + 1]) / len;
            res.bone_drift = bl > res.bone_drift ? bl : res.bone_drift;
            if (j[i].type == IK_JOINT_BALL) {
                int at = 3 * i;
                double a = (double)ik_vec3_length(ik_vec3_make(q[at], q[at + 1], q[at + 2]));
                res.max_q = a > res.max_q ? a : res.max_q;
                if (a > 3.14159265358979323846 * (1 + 1e-6))
                    res.bad++;
            } else {
                double a = fabs((double)q[i]);
                res.max_q = a > res.max_q ? a : res.max_q;
                if (q[i] < j[i].lo || q[i] > j[i].hi)
                    res.bad++;
            }
        }
        err = (double)info.position_error / len;
        res.worst = err > res.worst ? err : res.worst;
        sum += err;
        res.converged += info.status == IK_STATUS_CONVERGED;
    }
    res.mean = sum / (double)(n > 0 ? n : 1);
    return res;
}

int main(int argc, char **argv)
{
    static const char *names[3] = { "5 balls, jacobian", "5 balls, ccd", "7-DOF arm, jacobian" };
    long n = argc > 1 ? atol(argv[1]) : 20000;
    int kind, failed = 0, passed = 0;
    printf("%ld tracking solves per chain, ik_real = %s\n", n, IK_REAL_FMT);
    printf("%-20s %6s %10s %10s %10s %10s %10s %9s\n", "chain", "bad", "quat drift", "bone drift",
           "max |q|", "worst err", "mean err", "converged");
    for (kind = 0; kind < 3; kind++) {
        result r = run(kind, n);
        printf("%-20s %6d %10.2e %10.2e %10.4f %10.2e %10.2e %8.1f%%\n", names[kind], r.bad,
               r.quat_drift, r.bone_drift, r.max_q, r.worst, r.mean,
               100.0 * r.converged / (double)(n > 0 ? n : 1));
        // no failed solve, no NaN, |v| <= pi, limits; drift at rounding level; the chain keeps
        // following (CCD converges linearly: it lags more)
        if (r.bad == 0 && r.quat_drift < 1e3 * (double)IK_EPSILON &&
            r.bone_drift < 1e3 * (double)IK_EPSILON && r.worst < 0.1)
            passed++;
        else
            failed++, printf("FAIL %s\n", names[kind]);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
