/* Chain model, forward kinematics, Jacobian, URDF and DH helpers. */
#include "test.h"
#include <string.h>

#define MAXJ   24
#define PI_D   3.14159265358979323846
#define MAXDOF (3 * MAXJ)

// A random chain of n joints of the given types (type < 0: random mix), unit-ish link lengths.
static ik_chain random_chain(test_rng *r, ik_joint *joints, int n, int type)
{
    int i;
    for (i = 0; i < n; i++) {
        int t = type >= 0 ? type : (int)(test_rng_next(r) % 4);
        ik_quat rot = test_rng_quat(r); // one draw per statement (argument order is unspecified)
        ik_xform origin = ik_xform_make(rot, test_rng_vec3(r, -1, 1));
        ik_vec3 axis = ik_vec3_normalize(test_rng_vec3(r, -1, 1));
        switch (t) {
        case 0: joints[i] = ik_joint_fixed(origin); break;
        case 1: joints[i] = ik_joint_revolute(origin, axis); break;
        case 2: joints[i] = ik_joint_prismatic(origin, axis); break;
        default: joints[i] = ik_joint_ball(origin); break;
        }
    }
    {
        ik_quat rot = test_rng_quat(r);
        return ik_chain_make(joints, n, ik_xform_make(rot, test_rng_vec3(r, -1, 1)));
    }
}

static void random_state(test_rng *r, ik_real *q, int dof, double range)
{
    int i;
    for (i = 0; i < dof; i++)
        q[i] = (ik_real)test_rng_uniform(r, -range, range);
}

// Angular velocity w with exp([w]x 2h) = R(+h) R(-h)^T, from two orientations (root frame).
static ik_vec3 angular_fd(ik_quat plus, ik_quat minus, double h)
{
    return ik_vec3_scale(ik_quat_to_expmap(ik_quat_mul(plus, ik_quat_conjugate(minus))),
                         (ik_real)(1.0 / (2.0 * h)));
}

static void test_dof_and_state_index(void)
{
    ik_joint j[4];
    ik_chain c;
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    j[1] = ik_joint_ball(ik_xform_translation(ik_vec3_make(1, 0, 0)));
    j[2] = ik_joint_fixed(ik_xform_translation(ik_vec3_make(1, 0, 0)));
    j[3] = ik_joint_prismatic(ik_xform_identity(), ik_vec3_make(1, 0, 0));
    c = ik_chain_make(j, 4, ik_xform_identity());
    CHECK(ik_chain_validate(&c) == IK_OK);
    CHECK(ik_chain_dof(&c) == 5);
    CHECK(ik_chain_state_index(&c, 0) == 0);
    CHECK(ik_chain_state_index(&c, 1) == 1);
    CHECK(ik_chain_state_index(&c, 2) == 4);
    CHECK(ik_chain_state_index(&c, 3) == 4);
    CHECK(ik_chain_state_index(&c, 4) == -1);
    CHECK(ik_chain_state_index(&c, -1) == -1);
    CHECK(ik_chain_state_index(NULL, 0) == -1);
    CHECK(ik_chain_dof(NULL) == -1);
    CHECK(ik_joint_type_dof(IK_JOINT_FIXED) == 0);
    CHECK(ik_joint_type_dof(IK_JOINT_REVOLUTE) == 1);
    CHECK(ik_joint_type_dof(IK_JOINT_PRISMATIC) == 1);
    CHECK(ik_joint_type_dof(IK_JOINT_BALL) == 3);
    CHECK(ik_joint_type_dof((ik_joint_type)7) == 0);
    CHECK(strlen(ik_result_string(IK_ERR_SCRATCH_TOO_SMALL)) > 0);
    CHECK(strcmp(ik_result_string((ik_result)42), "unknown ik_result") == 0);
    CHECK(strcmp(ik_status_string(IK_STATUS_UNREACHABLE), "unreachable") == 0);
    CHECK(strcmp(ik_status_string((ik_status)42), "unknown ik_status") == 0);
}

// Every malformed chain or state is rejected with its code, and no output is written.
static void test_bad_input(void)
{
    ik_joint good[3], bad[3];
    ik_chain c;
    ik_real q[3] = { IK_R(0.1), IK_R(0.2), IK_R(0.3) }, jac[6 * 3];
    ik_xform frames[3], eff, frames0[3], eff0;
    ik_real jac0[6 * 3];
    int i, k;
    const ik_real nan = (ik_real)NAN, inf = IK_INFINITY;
    good[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    good[1] =
        ik_joint_prismatic(ik_xform_translation(ik_vec3_make(1, 0, 0)), ik_vec3_make(1, 0, 0));
    good[2] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(1, 0, 0)), ik_vec3_make(0, 1, 0));
    memset(frames, 0x5a, sizeof frames);
    memset(&eff, 0x5a, sizeof eff);
    memset(jac, 0x5a, sizeof jac);
    memcpy(frames0, frames, sizeof frames);
    eff0 = eff;
    memcpy(jac0, jac, sizeof jac);

    // 18 ways to break one joint
    for (k = 0; k < 18; k++) {
        ik_result want = IK_ERR_BAD_ARG, got_fk, got_jac;
        memcpy(bad, good, sizeof good);
        switch (k) {
        case 0: bad[1].axis = ik_vec3_zero(); break;
        case 1: bad[1].axis = ik_vec3_make(1, 1, 0); break; // not unit
        case 2: bad[1].axis.x = nan; break;
        case 3: bad[1].origin.pos.y = nan; break;
        case 4: bad[1].origin.pos.y = inf; break;
        case 5: bad[1].origin.pos.y = IK_R(2e12); break; // beyond IK_MAX_MAGNITUDE
        case 6: bad[1].origin.rot = ik_quat_make(0, 0, 0, 0); break;
        case 7: bad[1].origin.rot = ik_quat_make(0, 0, 0, 2); break;
        case 8: bad[1].origin.rot.w = nan; break;
        case 9: bad[1].lo = nan; break;
        case 10:
            bad[1].lo = 1;
            bad[1].hi = -1;
            break;
        case 11: bad[1].lo = inf; break;
        case 12: bad[1].hi = -inf; break;
        case 13: bad[1].weight = -1; break;
        case 14: bad[1].weight = nan; break;
        case 15: bad[1].type = (ik_joint_type)9; break;
        case 16: bad[2].axis = ik_vec3_zero(); break;
        case 17: bad[0].axis = ik_vec3_make(0, 0, inf); break;
        }
        c = ik_chain_make(bad, 3, ik_xform_identity());
        CHECK(ik_chain_validate(&c) == want);
        CHECK(ik_chain_dof(&c) == -1);
        got_fk = ik_chain_fk(&c, q, frames, &eff);
        got_jac = ik_chain_jacobian(&c, q, 6, jac, &eff);
        CHECK(got_fk == want);
        CHECK(got_jac == want);
        if (got_fk != want || got_jac != want)
            printf("  case %d\n", k);
    }
    CHECK(memcmp(frames, frames0, sizeof frames) == 0);
    CHECK(memcmp(&eff, &eff0, sizeof eff) == 0);
    CHECK(memcmp(jac, jac0, sizeof jac) == 0);

    // limits: infinite allowed, lo == hi allowed
    memcpy(bad, good, sizeof good);
    bad[1].lo = -inf;
    bad[1].hi = inf;
    bad[2].lo = bad[2].hi = IK_R(0.5);
    c = ik_chain_make(bad, 3, ik_xform_identity());
    CHECK(ik_chain_validate(&c) == IK_OK);

    // the chain itself
    c = ik_chain_make(good, 3, ik_xform_identity());
    CHECK(ik_chain_validate(NULL) == IK_ERR_NULL_ARG);
    c.joints = NULL;
    CHECK(ik_chain_validate(&c) == IK_ERR_NULL_ARG);
    c = ik_chain_make(good, 0, ik_xform_identity());
    CHECK(ik_chain_validate(&c) == IK_ERR_BAD_ARG);
    c = ik_chain_make(good, -3, ik_xform_identity());
    CHECK(ik_chain_validate(&c) == IK_ERR_BAD_ARG);
    c = ik_chain_make(good, IK_MAX_JOINTS + 1, ik_xform_identity());
    CHECK(ik_chain_validate(&c) == IK_ERR_BAD_ARG);
    c = ik_chain_make(good, 3, ik_xform_identity());
    c.tip.pos.z = nan;
    CHECK(ik_chain_validate(&c) == IK_ERR_BAD_ARG);
    c.tip = ik_xform_identity();
    c.tip.rot.x = 1; // |rot|^2 = 2
    CHECK(ik_chain_validate(&c) == IK_ERR_BAD_ARG);

    // the state and the outputs
    c = ik_chain_make(good, 3, ik_xform_identity());
    CHECK(ik_chain_fk(NULL, q, frames, &eff) == IK_ERR_NULL_ARG);
    CHECK(ik_chain_fk(&c, NULL, frames, &eff) == IK_ERR_NULL_ARG);
    CHECK(ik_chain_jacobian(&c, q, 6, NULL, &eff) == IK_ERR_NULL_ARG);
    CHECK(ik_chain_jacobian(&c, NULL, 6, jac, &eff) == IK_ERR_NULL_ARG);
    CHECK(ik_chain_jacobian(&c, q, 4, jac, &eff) == IK_ERR_BAD_ARG);
    CHECK(ik_chain_jacobian(&c, q, 0, jac, &eff) == IK_ERR_BAD_ARG);
    for (i = 0; i < 3; i++) {
        ik_real keep = q[i];
        ik_real bads[3];
        int b;
        bads[0] = nan;
        bads[1] = -inf;
        bads[2] = IK_R(-2e12);
        for (b = 0; b < 3; b++) {
            q[i] = bads[b];
            CHECK(ik_chain_fk(&c, q, frames, &eff) == IK_ERR_BAD_ARG);
            CHECK(ik_chain_jacobian(&c, q, 3, jac, &eff) == IK_ERR_BAD_ARG);
        }
        q[i] = keep;
    }
    CHECK(memcmp(frames, frames0, sizeof frames) == 0);
    CHECK(memcmp(&eff, &eff0, sizeof eff) == 0);
    CHECK(memcmp(jac, jac0, sizeof jac) == 0);
    // both outputs NULL: validation only
    CHECK(ik_chain_fk(&c, q, NULL, NULL) == IK_OK);
}

// A planar two-link arm, by hand: links 1 and 0.5 along x, hinges about z.
static void test_fk_planar(void)
{
    ik_joint j[2];
    ik_chain c;
    ik_xform frames[2], eff;
    ik_real q[2];
    double a = 0.7, b = -1.1;
    j[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
    j[1] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(1, 0, 0)), ik_vec3_make(0, 0, 1));
    c = ik_chain_make(j, 2, ik_xform_translation(ik_vec3_make(IK_R(0.5), 0, 0)));
    q[0] = (ik_real)a;
    q[1] = (ik_real)b;
    CHECK(ik_chain_fk(&c, q, frames, &eff) == IK_OK);
    CHECK_NEAR(eff.pos.x, cos(a) + 0.5 * cos(a + b), TOL(1e-15, 1e-6));
    CHECK_NEAR(eff.pos.y, sin(a) + 0.5 * sin(a + b), TOL(1e-15, 1e-6));
    CHECK_NEAR(eff.pos.z, 0, TOL(1e-15, 1e-6));
    CHECK_NEAR(frames[1].pos.x, cos(a), TOL(1e-15, 1e-6));
    CHECK_NEAR(frames[1].pos.y, sin(a), TOL(1e-15, 1e-6));
    CHECK_NEAR(
        test_quat_angle(eff.rot, ik_quat_from_axis_angle(ik_vec3_make(0, 0, 1), (ik_real)(a + b))),
        0, TOL(1e-15, 1e-6));
}

// Random chains: frames are consistent, rotations stay unit, and the effector is the last
// frame times the tip.
static void test_fk_frames(void)
{
    test_rng r = { 11 };
    ik_joint joints[MAXJ];
    ik_xform frames[MAXJ], eff, e2;
    ik_real q[MAXDOF];
    int trial, i;
    for (trial = 0; trial < 200; trial++) {
        int n = 1 + (int)(test_rng_next(&r) % MAXJ);
        ik_chain c = random_chain(&r, joints, n, -1);
        int dof = ik_chain_dof(&c);
        CHECK(dof >= 0);
        random_state(&r, q, dof, 3);
        CHECK(ik_chain_fk(&c, q, frames, &eff) == IK_OK);
        CHECK(ik_chain_fk(&c, q, NULL, &e2) == IK_OK);
        CHECK(memcmp(&eff, &e2, sizeof eff) == 0);
        e2 = ik_xform_mul(frames[n - 1], c.tip);
        CHECK_NEAR(test_vec3_dist(e2.pos, eff.pos), 0, TOL(1e-13, 1e-4));
        for (i = 0; i < n; i++)
            CHECK(ik_quat_is_unit(frames[i].rot, (ik_real)TOL(1e-13, 1e-5)));
    }
}

// Forward kinematics by an independent route: 3x3 matrices and Rodrigues' formula.
static void fk_by_matrices(const ik_chain *c, const ik_real *q, ik_mat3 *out_r, ik_vec3 *out_p)
{
    ik_mat3 r = ik_mat3_identity();
    ik_vec3 p = ik_vec3_zero();
    int i, col = 0;
    for (i = 0; i < c->joint_count; i++) {
        const ik_joint *j = &c->joints[i];
        ik_mat3 m;
        p = ik_vec3_add(p, ik_mat3_mul_vec3(r, j->origin.pos));
        r = ik_mat3_mul(r, ik_quat_to_mat3(j->origin.rot));
        if (j->type == IK_JOINT_REVOLUTE || j->type == IK_JOINT_BALL) {
            // Rodrigues: I + sin t K + (1 - cos t) K^2, K = [n]x
            ik_vec3 v = j->type == IK_JOINT_BALL ? ik_vec3_make(q[col], q[col + 1], q[col + 2])
                                                 : ik_vec3_scale(j->axis, q[col]);
            double t = (double)ik_vec3_length(v), s = sin(t), cm = 1 - cos(t);
            ik_vec3 n = t > 0 ? ik_vec3_scale(v, (ik_real)(1 / t)) : ik_vec3_make(1, 0, 0);
            double K[3][3];
            int a, b;
            K[0][0] = 0;
            K[0][1] = -(double)n.z;
            K[0][2] = (double)n.y;
            K[1][0] = (double)n.z;
            K[1][1] = 0;
            K[1][2] = -(double)n.x;
            K[2][0] = -(double)n.y;
            K[2][1] = (double)n.x;
            K[2][2] = 0;
            for (a = 0; a < 3; a++)
                for (b = 0; b < 3; b++)
                    m.m[a][b] =
                        (ik_real)((a == b ? 1.0 : 0.0) + s * K[a][b] +
                                  cm * (K[a][0] * K[0][b] + K[a][1] * K[1][b] + K[a][2] * K[2][b]));
            r = ik_mat3_mul(r, m);
        } else if (j->type == IK_JOINT_PRISMATIC) {
            p = ik_vec3_add(p, ik_mat3_mul_vec3(r, ik_vec3_scale(j->axis, q[col])));
        }
        col += ik_joint_type_dof(j->type);
    }
    *out_p = ik_vec3_add(p, ik_mat3_mul_vec3(r, c->tip.pos));
    *out_r = ik_mat3_mul(r, ik_quat_to_mat3(c->tip.rot));
}

static void test_fk_matches_matrices(void)
{
    test_rng r = { 12 };
    ik_joint joints[MAXJ];
    ik_real q[MAXDOF];
    int trial;
    for (trial = 0; trial < 300; trial++) {
        int n = 1 + (int)(test_rng_next(&r) % 12);
        ik_chain c = random_chain(&r, joints, n, -1);
        ik_xform eff;
        ik_mat3 rm;
        ik_vec3 pm;
        random_state(&r, q, ik_chain_dof(&c), 3);
        CHECK(ik_chain_fk(&c, q, NULL, &eff) == IK_OK);
        fk_by_matrices(&c, q, &rm, &pm);
        // rounding grows with the number of products, about n * eps in each
        CHECK_NEAR(test_vec3_dist(eff.pos, pm), 0, TOL(1e-13, 2e-5));
        CHECK_NEAR(test_mat3_dist(ik_quat_to_mat3(eff.rot), rm), 0, TOL(1e-13, 2e-5));
    }
}

// The Jacobian against central finite differences of FK, on random chains of every joint type.
static void test_jacobian_fd(void)
{
    test_rng r = { 13 };
    ik_joint joints[MAXJ];
    ik_real q[MAXDOF], qp[MAXDOF], jac[6 * MAXDOF], jac3[3 * MAXDOF];
    int trial, type;
#ifdef IK_USE_FLOAT
    // float: a step of 1e-2 keeps rounding (1e-7 / 1e-2) and truncation (h^2 ~ 1e-4) both small
    const double h = 1e-2, tol = 2e-3;
#else
    // double: truncation h^2 |f'''| / 6 ~ 2e-11 and rounding eps / h ~ 2e-11 with h = 1e-5
    const double h = 1e-5, tol = 1e-8;
#endif
    for (type = -1; type < 4; type++) {
        for (trial = 0; trial < 60; trial++) {
            int n = 1 + (int)(test_rng_next(&r) % 10), dof, col, row;
            ik_chain c = random_chain(&r, joints, n, type);
            ik_xform eff, e3, ep, em;
            double worst = 0;
            dof = ik_chain_dof(&c);
            if (dof == 0)
                continue;
            random_state(&r, q, dof, 2.5);
            CHECK(ik_chain_jacobian(&c, q, 6, jac, &eff) == IK_OK);
            CHECK(ik_chain_jacobian(&c, q, 3, jac3, &e3) == IK_OK);
            CHECK(memcmp(&eff, &e3, sizeof eff) == 0);
            for (col = 0; col < dof; col++) {
                ik_vec3 lin, ang;
                memcpy(qp, q, sizeof(ik_real) * (size_t)dof);
                qp[col] = (ik_real)((double)q[col] + h);
                ik_chain_fk(&c, qp, NULL, &ep);
                qp[col] = (ik_real)((double)q[col] - h);
                ik_chain_fk(&c, qp, NULL, &em);
                lin = ik_vec3_scale(ik_vec3_sub(ep.pos, em.pos), (ik_real)(1 / (2 * h)));
                ang = angular_fd(ep.rot, em.rot, h);
                for (row = 0; row < 3; row++) {
                    double l = row == 0 ? (double)lin.x : row == 1 ? (double)lin.y : (double)lin.z;
                    double a = row == 0 ? (double)ang.x : row == 1 ? (double)ang.y : (double)ang.z;
                    double e1 = fabs((double)jac[row * dof + col] - l);
                    double e2 = fabs((double)jac[(row + 3) * dof + col] - a);
                    if (e1 > worst)
                        worst = e1;
                    if (e2 > worst)
                        worst = e2;
                    // the 3-row Jacobian is the 6-row one's position block
                    CHECK_NEAR(jac3[row * dof + col], jac[row * dof + col], TOL(1e-13, 1e-5));
                }
            }
            CHECK_NEAR(worst, 0, tol);
        }
    }
}

// Ball joints at the awkward places of the exponential map: 0, tiny, near pi, beyond pi.
static void test_jacobian_ball_edges(void)
{
    ik_joint j[2];
    ik_chain c;
    ik_real q[6], qp[6], jac[36];
    double mags[6] = { 0, 1e-9, 1e-3, 3.14159265358979 - 1e-6, 3.2, 7.0 };
    int m, col, row;
#ifdef IK_USE_FLOAT
    const double h = 1e-2, tol = 3e-3;
#else
    const double h = 1e-6, tol = 1e-8;
#endif
    j[0] = ik_joint_ball(ik_xform_identity());
    j[1] = ik_joint_ball(ik_xform_translation(ik_vec3_make(0, 0, 1)));
    c = ik_chain_make(j, 2, ik_xform_translation(ik_vec3_make(IK_R(0.3), 0, IK_R(0.8))));
    for (m = 0; m < 6; m++) {
        ik_vec3 dir = ik_vec3_normalize(ik_vec3_make(IK_R(0.3), IK_R(-0.5), IK_R(0.8)));
        ik_xform ep, em;
        q[0] = (ik_real)(mags[m] * (double)dir.x);
        q[1] = (ik_real)(mags[m] * (double)dir.y);
        q[2] = (ik_real)(mags[m] * (double)dir.z);
        q[3] = IK_R(0.4);
        q[4] = IK_R(0.1);
        q[5] = IK_R(-0.2);
        CHECK(ik_chain_jacobian(&c, q, 6, jac, NULL) == IK_OK);
        for (col = 0; col < 3; col++) {
            ik_vec3 lin, ang;
            memcpy(qp, q, sizeof q);
            qp[col] = (ik_real)((double)q[col] + h);
            ik_chain_fk(&c, qp, NULL, &ep);
            qp[col] = (ik_real)((double)q[col] - h);
            ik_chain_fk(&c, qp, NULL, &em);
            lin = ik_vec3_scale(ik_vec3_sub(ep.pos, em.pos), (ik_real)(1 / (2 * h)));
            ang = angular_fd(ep.rot, em.rot, h);
            for (row = 0; row < 3; row++) {
                double l = row == 0 ? (double)lin.x : row == 1 ? (double)lin.y : (double)lin.z;
                double a = row == 0 ? (double)ang.x : row == 1 ? (double)ang.y : (double)ang.z;
                CHECK_NEAR(jac[row * 6 + col], l, tol);
                CHECK_NEAR(jac[(row + 3) * 6 + col], a, tol);
            }
        }
    }
}

// 4x4 homogeneous matrices in double, to check the DH helper independently.
typedef struct m44 {
    double m[4][4];
} m44;
static m44 m44_mul(m44 a, m44 b)
{
    m44 r;
    int i, j, k;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            r.m[i][j] = 0;
            for (k = 0; k < 4; k++)
                r.m[i][j] += a.m[i][k] * b.m[k][j];
        }
    return r;
}
static m44 m44_id(void)
{
    m44 r;
    int i, j;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++)
            r.m[i][j] = i == j;
    return r;
}
static m44 m44_rot(int axis, double t)
{
    m44 r = m44_id();
    int a = (axis + 1) % 3, b = (axis + 2) % 3;
    r.m[a][a] = cos(t);
    r.m[a][b] = -sin(t);
    r.m[b][a] = sin(t);
    r.m[b][b] = cos(t);
    return r;
}
static m44 m44_trans(int axis, double d)
{
    m44 r = m44_id();
    r.m[axis][3] = d;
    return r;
}

static void check_xform_vs_m44(ik_xform t, m44 m, double tol)
{
    ik_mat3 r = ik_quat_to_mat3(t.rot);
    int i, j;
    double worst = 0;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            if (fabs((double)r.m[i][j] - m.m[i][j]) > worst)
                worst = fabs((double)r.m[i][j] - m.m[i][j]);
    worst = fmax(worst, fabs((double)t.pos.x - m.m[0][3]));
    worst = fmax(worst, fabs((double)t.pos.y - m.m[1][3]));
    worst = fmax(worst, fabs((double)t.pos.z - m.m[2][3]));
    CHECK_NEAR(worst, 0, tol);
}

static void test_dh(void)
{
    test_rng r = { 14 };
    ik_dh_row rows[8];
    ik_joint joints[8];
    ik_xform tip, eff;
    ik_real q[8];
    int trial, conv;
    for (conv = 0; conv < 2; conv++) {
        for (trial = 0; trial < 100; trial++) {
            int n = 1 + (int)(test_rng_next(&r) % 8), i, col = 0;
            m44 m = m44_id();
            ik_chain c;
            for (i = 0; i < n; i++) {
                int t = (int)(test_rng_next(&r) % 3);
                rows[i].type =
                    t == 0 ? IK_JOINT_REVOLUTE : (t == 1 ? IK_JOINT_PRISMATIC : IK_JOINT_FIXED);
                rows[i].a = (ik_real)test_rng_uniform(&r, -1, 1);
                rows[i].alpha = (ik_real)test_rng_uniform(&r, -3, 3);
                rows[i].d = (ik_real)test_rng_uniform(&r, -1, 1);
                rows[i].theta = (ik_real)test_rng_uniform(&r, -3, 3);
                rows[i].lo = -IK_INFINITY;
                rows[i].hi = IK_INFINITY;
            }
            CHECK(ik_joints_from_dh(rows, n, conv ? IK_DH_MODIFIED : IK_DH_CLASSIC, joints, &tip) ==
                  IK_OK);
            c = ik_chain_make(joints, n, tip);
            CHECK(ik_chain_validate(&c) == IK_OK);
            for (i = 0; i < n; i++) {
                double th = (double)rows[i].theta, d = (double)rows[i].d, v = 0;
                if (rows[i].type != IK_JOINT_FIXED) {
                    q[col] = (ik_real)test_rng_uniform(&r, -2, 2);
                    v = (double)q[col++];
                }
                if (rows[i].type == IK_JOINT_REVOLUTE)
                    th += v;
                if (rows[i].type == IK_JOINT_PRISMATIC)
                    d += v;
                if (conv == 0)
                    m = m44_mul(m, m44_mul(m44_mul(m44_rot(2, th), m44_trans(2, d)),
                                           m44_mul(m44_trans(0, (double)rows[i].a),
                                                   m44_rot(0, (double)rows[i].alpha))));
                else
                    m = m44_mul(m, m44_mul(m44_mul(m44_rot(0, (double)rows[i].alpha),
                                                   m44_trans(0, (double)rows[i].a)),
                                           m44_mul(m44_rot(2, th), m44_trans(2, d))));
            }
            CHECK(ik_chain_dof(&c) == col);
            CHECK(ik_chain_fk(&c, q, NULL, &eff) == IK_OK);
            check_xform_vs_m44(eff, m, TOL(1e-14 * 8, 1e-5));
        }
    }
    // errors
    CHECK(ik_joints_from_dh(NULL, 1, IK_DH_CLASSIC, joints, &tip) == IK_ERR_NULL_ARG);
    CHECK(ik_joints_from_dh(rows, 1, IK_DH_CLASSIC, NULL, &tip) == IK_ERR_NULL_ARG);
    CHECK(ik_joints_from_dh(rows, 1, IK_DH_CLASSIC, joints, NULL) == IK_ERR_NULL_ARG);
    CHECK(ik_joints_from_dh(rows, 0, IK_DH_CLASSIC, joints, &tip) == IK_ERR_BAD_ARG);
    CHECK(ik_joints_from_dh(rows, 1, (ik_dh_convention)5, joints, &tip) == IK_ERR_BAD_ARG);
    rows[0].type = IK_JOINT_BALL;
    CHECK(ik_joints_from_dh(rows, 1, IK_DH_CLASSIC, joints, &tip) == IK_ERR_BAD_ARG);
    rows[0].type = IK_JOINT_REVOLUTE;
    rows[0].d = (ik_real)NAN;
    CHECK(ik_joints_from_dh(rows, 1, IK_DH_CLASSIC, joints, &tip) == IK_ERR_BAD_ARG);
    rows[0].d = 0;
    rows[0].lo = 1;
    rows[0].hi = 0;
    CHECK(ik_joints_from_dh(rows, 1, IK_DH_CLASSIC, joints, &tip) == IK_ERR_BAD_ARG);
}

// Franka Emika Panda, modified DH from its datasheet, flange as a fixed row. The ready pose
// q = (0, -pi/4, 0, -3pi/4, 0, pi/2, pi/4) puts the flange at (0.3069, 0, 0.5903) m, pointing
// down.
static void test_dh_panda_ready_pose(void)
{
    static const double p[8][4] = { /* a, d, alpha, theta */
                                    { 0, 0.333, 0, 0 },
                                    { 0, 0, -PI_D / 2, 0 },
                                    { 0, 0.316, PI_D / 2, 0 },
                                    { 0.0825, 0, PI_D / 2, 0 },
                                    { -0.0825, 0.384, -PI_D / 2, 0 },
                                    { 0, 0, PI_D / 2, 0 },
                                    { 0.088, 0, PI_D / 2, 0 },
                                    { 0, 0.107, 0, 0 }
    };
    ik_dh_row rows[8];
    ik_joint joints[8];
    ik_xform tip, eff;
    ik_real q[7];
    ik_chain c;
    ik_vec3 down;
    int i;
    for (i = 0; i < 8; i++) {
        rows[i].type = i < 7 ? IK_JOINT_REVOLUTE : IK_JOINT_FIXED;
        rows[i].a = (ik_real)p[i][0];
        rows[i].d = (ik_real)p[i][1];
        rows[i].alpha = (ik_real)p[i][2];
        rows[i].theta = (ik_real)p[i][3];
        rows[i].lo = -IK_INFINITY;
        rows[i].hi = IK_INFINITY;
    }
    CHECK(ik_joints_from_dh(rows, 8, IK_DH_MODIFIED, joints, &tip) == IK_OK);
    c = ik_chain_make(joints, 8, tip);
    CHECK(ik_chain_dof(&c) == 7);
    q[0] = 0;
    q[1] = (ik_real)(-PI_D / 4);
    q[2] = 0;
    q[3] = (ik_real)(-3 * PI_D / 4);
    q[4] = 0;
    q[5] = (ik_real)(PI_D / 2);
    q[6] = (ik_real)(PI_D / 4);
    CHECK(ik_chain_fk(&c, q, NULL, &eff) == IK_OK);
    // the published figures have 4 decimals
    CHECK_NEAR(eff.pos.x, 0.3069, 1e-4);
    CHECK_NEAR(eff.pos.y, 0, 1e-4);
    CHECK_NEAR(eff.pos.z, 0.5903, 1e-4);
    down = ik_xform_apply_direction(eff, ik_vec3_make(0, 0, 1));
    CHECK_NEAR(down.z, -1, TOL(1e-12, 1e-5));
}

static void test_urdf(void)
{
    test_rng r = { 15 };
    ik_joint j;
    int trial;
    for (trial = 0; trial < 200; trial++) {
        ik_vec3 xyz = test_rng_vec3(&r, -1, 1), rpy = test_rng_vec3(&r, -3, 3);
        ik_vec3 axis = test_rng_vec3(&r, -2, 2);
        // URDF: R = Rz(y) Ry(p) Rx(r), built here from 4x4 matrices
        m44 m = m44_mul(m44_mul(m44_rot(2, (double)rpy.z), m44_rot(1, (double)rpy.y)),
                        m44_rot(0, (double)rpy.x));
        m.m[0][3] = (double)xyz.x;
        m.m[1][3] = (double)xyz.y;
        m.m[2][3] = (double)xyz.z;
        CHECK(ik_joint_from_urdf(IK_JOINT_REVOLUTE, xyz, rpy, axis, -1, 2, &j) == IK_OK);
        CHECK(j.type == IK_JOINT_REVOLUTE);
        check_xform_vs_m44(j.origin, m, TOL(1e-15 * 8, 1e-6));
        CHECK_NEAR(test_vec3_dist(j.axis, ik_vec3_normalize(axis)), 0, TOL(1e-15, 1e-6));
        CHECK(j.lo == -1 && j.hi == 2 && j.weight == 1);
        // URDF rpy is IK_EULER_ZYX with e = (y, p, r)
        CHECK_NEAR(
            test_mat3_dist(ik_quat_to_mat3(j.origin.rot),
                           ik_mat3_from_euler(ik_vec3_make(rpy.z, rpy.y, rpy.x), IK_EULER_ZYX)),
            0, TOL(1e-14, 1e-5));
    }
    CHECK(ik_joint_from_urdf(IK_JOINT_FIXED, ik_vec3_zero(), ik_vec3_zero(), ik_vec3_zero(), 0, 0,
                             &j) == IK_OK);
    memset(&j, 0x5a, sizeof j);
    {
        ik_joint j0 = j;
        CHECK(ik_joint_from_urdf(IK_JOINT_REVOLUTE, ik_vec3_zero(), ik_vec3_zero(), ik_vec3_zero(),
                                 -1, 1, &j) == IK_ERR_BAD_ARG);
        CHECK(ik_joint_from_urdf(IK_JOINT_BALL, ik_vec3_zero(), ik_vec3_zero(),
                                 ik_vec3_make(0, 0, 1), -1, 1, &j) == IK_ERR_BAD_ARG);
        CHECK(ik_joint_from_urdf(IK_JOINT_PRISMATIC, ik_vec3_make((ik_real)NAN, 0, 0),
                                 ik_vec3_zero(), ik_vec3_make(0, 0, 1), -1, 1,
                                 &j) == IK_ERR_BAD_ARG);
        CHECK(ik_joint_from_urdf(IK_JOINT_PRISMATIC, ik_vec3_zero(), ik_vec3_zero(),
                                 ik_vec3_make(0, 0, 1), 1, -1, &j) == IK_ERR_BAD_ARG);
        CHECK(memcmp(&j, &j0, sizeof j) == 0);
        CHECK(ik_joint_from_urdf(IK_JOINT_PRISMATIC, ik_vec3_zero(), ik_vec3_zero(),
                                 ik_vec3_make(0, 0, 1), 1, -1, NULL) == IK_ERR_NULL_ARG);
    }
}

// Huge but legal values stay finite; the whole chain at the magnitude bound.
static void test_large_magnitudes(void)
{
    ik_joint j[IK_MAX_JOINTS > 64 ? 64 : IK_MAX_JOINTS];
    ik_real q[64], jac[6 * 64];
    ik_xform eff;
    int i, n = (int)(sizeof j / sizeof j[0]);
    for (i = 0; i < n; i++) {
        j[i] = i % 2 ? ik_joint_prismatic(ik_xform_translation(ik_vec3_make(IK_R(1e12), 0, 0)),
                                          ik_vec3_make(0, 1, 0))
                     : ik_joint_revolute(ik_xform_translation(ik_vec3_make(0, IK_R(1e12), 0)),
                                         ik_vec3_make(0, 0, 1));
        q[i] = IK_R(1e12);
    }
    {
        ik_chain c = ik_chain_make(j, n, ik_xform_identity());
        CHECK(ik_chain_jacobian(&c, q, 6, jac, &eff) == IK_OK);
        CHECK(ik_vec3_is_finite(eff.pos));
        for (i = 0; i < 6 * n; i++)
            if (!(jac[i] - jac[i] == 0)) {
                CHECK(0 && "non-finite Jacobian entry");
                break;
            }
    }
}

void test_chain(void);
void test_chain(void)
{
    RUN(test_dof_and_state_index);
    RUN(test_bad_input);
    RUN(test_fk_planar);
    RUN(test_fk_frames);
    RUN(test_fk_matches_matrices);
    RUN(test_jacobian_fd);
    RUN(test_jacobian_ball_edges);
    RUN(test_dh);
    RUN(test_dh_panda_ready_pose);
    RUN(test_urdf);
    RUN(test_large_magnitudes);
}
