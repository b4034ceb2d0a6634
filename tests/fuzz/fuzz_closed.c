/* Fuzz target: the closed forms. ik_chain_closed_form on chains from the bytes (6 or 7 revolute
   joints from DH rows with the zeros of a class: spherical wrist, three parallel axes, SRS; as
   is, perturbed, or with garbage; fixed joints around them; or any chain), then
   ik_closed_form_solve, ik_closed_form_solve_swivel, ik_closed_form_swivel and
   ik_closed_form_swivel_intervals on targets from the FK of a state or from the bytes, with
   near states, weights, max_out, swivels and a changed ik_closed_form (limits narrowed, crossed,
   NaN; kind or joint count wrong) from the bytes. On IK_OK: every written value finite and in
   range, count <= max_out <= ..., the order and the limits as documented, and, for a target
   that is the FK of a state of a recognised chain, every solution's FK at the target; on error:
   outputs untouched and an error code that matches what was made wrong. */
#include "fuzz.h"

#define CL_OUT 80 // solutions and intervals room (max_out runs up to it)
#define CL_PI  3.14159265358979323846

// FK accuracy of every solution, as a fraction of the arm's size (position) and radians
// (rotation): ik.h promises 1e-12 (double) and 1e-4 (float at singular poses); the fuzzed arms'
// sizes spread wider than the tests' (lengths to 1e-3 of the others), hence the margin
#ifdef IK_USE_FLOAT
#define CL_FK_TOL 2e-3
#else
#define CL_FK_TOL 1e-9
#endif

// A value in lo..hi from one byte (never special: the classes' exact shapes).
static double cl_uniform(fz *f, double lo, double hi)
{
    return lo + (hi - lo) * fz_u8(f) / 255.0;
}

// A twist between two axes: +-pi/2 or away from 0 and pi.
static double cl_twist(fz *f)
{
    uint8_t c = fz_u8(f);
    double s = c & 1 ? -1 : 1;
    return c < 96 ? s * CL_PI / 2 : s * cl_uniform(f, 0.3, 2.8);
}

typedef struct cl_arm {
    ik_joint joints[FZ_MAX_JOINTS];
    ik_chain chain;
    int kind;  // the class the DH rows have (IK_CLOSED_FORM_NONE: any chain)
    int exact; // the class's zeros kept, every value ordinary: the classifier must see it
    int bad;   // a value outside the documented domain went into the chain
} cl_arm;

// DH rows (a, alpha, d) with the zeros of kind's class.
static void cl_dh_class(fz *f, int kind, double (*p)[3])
{
    int i;
    memset(p, 0, sizeof(double) * 21);
    for (i = 0; i < 7; i++)
        p[i][1] = cl_twist(f);
    if (kind == IK_CLOSED_FORM_SRS) { // axes 1, 2, 3 meet, axes 5, 6, 7 meet
        p[0][2] = cl_uniform(f, 0.1, 0.4), p[2][2] = cl_uniform(f, 0.25, 0.6);
        p[4][2] = cl_uniform(f, 0.25, 0.6), p[6][2] = cl_uniform(f, 0.05, 0.3);
        p[2][0] = cl_uniform(f, -0.1, 0.1), p[3][0] = cl_uniform(f, -0.1, 0.1);
        p[3][2] = cl_uniform(f, -0.1, 0.1), p[6][0] = cl_uniform(f, -0.1, 0.1);
        return;
    }
    p[0][0] = cl_uniform(f, -0.3, 0.3), p[0][2] = cl_uniform(f, 0.1, 0.6);
    p[1][0] = cl_uniform(f, 0.2, 0.8), p[1][1] = 0, p[1][2] = cl_uniform(f, -0.2, 0.2);
    p[5][1] = 0, p[5][2] = cl_uniform(f, 0.05, 0.3);
    if (kind == IK_CLOSED_FORM_SPHERICAL_WRIST) { // axes 2, 3 parallel, axes 4, 5, 6 meet
        p[2][0] = cl_uniform(f, -0.2, 0.2);
        p[3][2] = cl_uniform(f, 0.2, 0.8);
    } else { // axes 2, 3, 4 parallel, axes 5 and 6 meet
        p[2][0] = cl_uniform(f, 0.2, 0.7), p[2][1] = 0, p[2][2] = cl_uniform(f, -0.2, 0.2);
        p[3][2] = cl_uniform(f, 0.05, 0.3), p[4][2] = cl_uniform(f, 0.05, 0.3);
    }
}

// Changes one DH entry: a small perturbation (0) or a value from the bytes, maybe special (1).
static void cl_dh_spoil(fz *f, double (*p)[3], int n, cl_arm *arm)
{
    int row = fz_u8(f) % n, col = fz_u8(f) % 3;
    arm->exact = 0;
    if (fz_u8(f) & 1) {
        p[row][col] += ldexp(cl_uniform(f, -1, 1), -fz_int(f, 5, 50));
        return;
    }
    f->tainted = 0;
    p[row][col] = (double)fz_real(f, 1);
    arm->bad = arm->bad || f->tainted;
}

// A fixed joint: the identity or a transform from the bytes (keeps the class only as a base or
// a tool: keeps).
static ik_joint cl_fixed(fz *f, cl_arm *arm, int keeps)
{
    int saved = f->tainted;
    ik_xform t = ik_xform_identity();
    if (fz_u8(f) & 1) {
        f->tainted = 0;
        t = fz_xform(f, 1);
        arm->bad = arm->bad || f->tainted;
        // (an offset far beyond the arm's links widens the classifier's tolerance, 64 epsilon of
        // the reach, past the class's zeros: another class may match first)
        arm->exact = arm->exact && keeps && !f->tainted && fz_dist(t.pos, ik_vec3_zero()) < 100;
    }
    f->tainted = saved;
    return ik_joint_fixed(t);
}

// A class's arm from DH rows into arm->chain; returns 0 if ik_joints_from_dh refused the rows.
static int cl_arm_from_dh(fz *f, int kind, cl_arm *arm)
{
    double p[7][3];
    ik_dh_row dh[7];
    ik_joint rev[7];
    ik_xform tip;
    int n = kind == IK_CLOSED_FORM_SRS ? 7 : 6, i, k = 0, mid = -1, spoil = fz_u8(f);
    cl_dh_class(f, kind, p);
    for (; spoil >= 160 && spoil % 4 != 0; spoil /= 4) // (up to three entries changed)
        cl_dh_spoil(f, p, n, arm);
    for (i = 0; i < n; i++) {
        dh[i].type = IK_JOINT_REVOLUTE;
        dh[i].a = fz_from_double(p[i][0]);
        dh[i].alpha = fz_from_double(p[i][1]);
        dh[i].d = fz_from_double(p[i][2]);
        dh[i].theta = (ik_real)cl_uniform(f, -CL_PI, CL_PI);
        dh[i].lo = -IK_PI;
        dh[i].hi = IK_PI;
        if (fz_chance(f, 40)) { // limits from the bytes
            f->tainted = 0;
            fz_limits(f, &dh[i].lo, &dh[i].hi);
            arm->bad = arm->bad || f->tainted;
        }
    }
    if (ik_joints_from_dh(dh, n, IK_DH_CLASSIC, rev, &tip) != IK_OK)
        return 0;
    if (fz_chance(f, 128))
        arm->joints[k++] = cl_fixed(f, arm, 1); // a base
    if (fz_chance(f, 48))
        mid = fz_u8(f) % (n - 1); // a fixed joint after joint mid
    for (i = 0; i < n; i++) {
        arm->joints[k++] = rev[i];
        if (i == mid)
            arm->joints[k++] = cl_fixed(f, arm, 0);
    }
    if (fz_chance(f, 48))
        arm->joints[k++] = cl_fixed(f, arm, 1); // a tool
    if (fz_chance(f, 12)) {                     // an axis zero, non-finite or not unit
        ik_joint *joint = &arm->joints[fz_u8(f) % k];
        f->tainted = 0;
        joint->axis = fz_chance(f, 128) ? ik_vec3_zero() : fz_vec3(f, 1);
        if (joint->type == IK_JOINT_REVOLUTE && // (a fixed joint's axis is ignored)
            (!(fabs((double)ik_vec3_length2(joint->axis) - 1) < 1e-4) || f->tainted))
            arm->bad = 1;
        arm->exact = 0;
    }
    arm->chain = ik_chain_make(arm->joints, k, tip);
    return 1;
}

// The arm: a class from DH rows (as is, perturbed, garbage), or any chain.
static void cl_arm_make(fz *f, cl_arm *arm)
{
    uint8_t c = fz_u8(f);
    int null_joints;
    arm->kind = IK_CLOSED_FORM_NONE;
    arm->exact = 1;
    arm->bad = 0;
    if (c < 224) {
        arm->kind = 1 + c % 3;
        if (cl_arm_from_dh(f, arm->kind, arm))
            return;
    }
    arm->kind = IK_CLOSED_FORM_NONE;
    arm->exact = 0;
    f->tainted = 0;
    arm->chain = fz_chain(f, arm->joints, 1, &null_joints);
    arm->bad = f->tainted || null_joints;
}

// The classifier's answers, NULL arguments included; the closed form into *cf.
static int cl_classify(fz *f, const cl_arm *arm, ik_closed_form *cf)
{
    ik_closed_form probe;
    const char *why = NULL;
    int kind, valid = ik_chain_validate(&arm->chain) == IK_OK;
    uint8_t c = fz_u8(f);
    memset(&probe, FZ_FILL, sizeof probe);
    kind = ik_chain_closed_form(c & 1 ? NULL : &arm->chain, c & 2 ? NULL : &probe,
                                c & 4 ? NULL : &why);
    FZ_CHECK(kind >= IK_CLOSED_FORM_NONE && kind <= IK_CLOSED_FORM_SRS);
    if (c & 1)
        FZ_CHECK(kind == IK_CLOSED_FORM_NONE);
    if (c & 2)
        FZ_CHECK(fz_untouched(&probe, sizeof probe));
    else
        FZ_CHECK((int)probe.kind == kind);
    if (!(c & 4))
        FZ_CHECK(why != NULL && why[0] != 0);
    memset(cf, FZ_FILL, sizeof *cf);
    kind = ik_chain_closed_form(&arm->chain, cf, NULL);
    FZ_CHECK((int)cf->kind == kind);
    if (!valid)
        FZ_CHECK(kind == IK_CLOSED_FORM_NONE);
    FZ_CHECK(!arm->bad || kind == IK_CLOSED_FORM_NONE);
    if (arm->exact)
        FZ_CHECK(kind == arm->kind);
    if (kind != IK_CLOSED_FORM_NONE) {
        int j;
        FZ_CHECK(cf->joint_count == (kind == IK_CLOSED_FORM_SRS ? 7 : 6));
        FZ_CHECK(ik_chain_dof(&arm->chain) == cf->joint_count);
        FZ_CHECK(fz_finite(cf->reach) && cf->reach >= 0);
        for (j = 0; j < cf->joint_count; j++)
            FZ_CHECK(ik_vec3_is_finite(cf->axis[j]) && ik_vec3_is_finite(cf->point[j]));
    }
    return kind;
}

// A NULL pointer argument: sometimes, where the input's first byte allows them (so that an input
// that runs out of bytes, which reads zeros, does not make every pointer NULL).
static int cl_nulls;
static int cl_null(fz *f)
{
    return cl_nulls && fz_chance(f, 12);
}

// What a case made wrong on purpose.
typedef struct cl_case {
    ik_closed_form cf; // maybe changed from the classifier's
    ik_xform target;
    ik_real state[7], near[7], weights[7], swivel;
    int jc, kind_ok, cf_bad, target_bad, near_bad, weights_bad, swivel_bad, max_out;
    int null_cf, null_near, null_weights, from_fk; // from_fk: target = FK(state), cf as found
} cl_case;

// Changes cf: a joint's limits narrowed, crossed or NaN; the kind or the joint count (wrong).
static void cl_cf_change(fz *f, cl_case *c)
{
    int j = fz_u8(f) % 7, what = fz_u8(f) % 8;
    ik_real lo, hi;
    if (what < 5) {
        f->tainted = 0;
        lo = fz_real(f, 1), hi = fz_real(f, 1);
        if (what < 3 && lo > hi) { // usually narrowed
            ik_real t = lo;
            lo = hi, hi = t;
        }
        c->cf.lo[j] = lo, c->cf.hi[j] = hi;
    } else if (what == 5) {
        c->cf.lo[j] = (ik_real)nan("");
    } else if (what == 6) { // (never a valid kind on another kind's geometry)
        static const int kinds[5] = { -1, 0, 4, 5, 0 };
        int k = fz_u8(f) % 5;
        c->cf.kind = (ik_closed_form_kind)(k < 4        ? kinds[k]
                                           : c->jc == 6 ? IK_CLOSED_FORM_SRS
                                                        : IK_CLOSED_FORM_SPHERICAL_WRIST);
    } else {
        c->cf.joint_count = c->jc + (fz_u8(f) & 1 ? 1 : -1);
    }
    {
        int jc = c->cf.kind == IK_CLOSED_FORM_SRS ? 7 : 6, i;
        c->kind_ok = c->cf.kind >= IK_CLOSED_FORM_SPHERICAL_WRIST &&
                     c->cf.kind <= IK_CLOSED_FORM_SRS && c->cf.joint_count == jc;
        c->cf_bad = !c->kind_ok;
        for (i = 0; i < jc; i++)
            c->cf_bad = c->cf_bad || fz_nan(c->cf.lo[i]) || fz_nan(c->cf.hi[i]) ||
                        c->cf.lo[i] > c->cf.hi[i];
    }
}

// A vector of 7 reals for near_state or weights: from state (near only), ordinary, or with a
// special value; *bad: one of the first jc is not bounded (or, weights, negative).
static void cl_reals(fz *f, const ik_real *from, ik_real *v, int jc, int weights, int *bad)
{
    int i, mode = fz_u8(f) % 4;
    *bad = 0;
    for (i = 0; i < 7; i++) {
        v[i] = from && mode == 0 ? from[i] : (ik_real)cl_uniform(f, weights ? 0 : -4, 4);
        if (mode == 3 && fz_chance(f, 64))
            v[i] = fz_real(f, 2);
        if (i < jc && (!fz_bounded(v[i]) || (weights && !(v[i] >= 0))))
            *bad = 1;
    }
}

// A case on the closed form the classifier found: the state, the target, the other arguments.
static void cl_case_make(fz *f, const cl_arm *arm, int kind, cl_case *c)
{
    int i, dof = ik_chain_dof(&arm->chain), state_bad = 0;
    c->jc = kind == IK_CLOSED_FORM_SRS ? 7 : 6;
    c->kind_ok = kind != IK_CLOSED_FORM_NONE;
    c->cf_bad = !c->kind_ok;
    c->from_fk = 0;
    f->tainted = 0;
    for (i = 0; i < 7; i++)
        c->state[i] = fz_chance(f, 8) ? fz_real(f, 4) : (ik_real)cl_uniform(f, -CL_PI, CL_PI);
    state_bad = f->tainted;
    if (dof >= 1 && dof <= 7 && !fz_chance(f, 24) &&
        ik_chain_fk(&arm->chain, c->state, NULL, &c->target) == IK_OK) {
        c->from_fk = c->kind_ok && !state_bad;
        c->target_bad = 0;
    } else { // a target from the bytes
        f->tainted = 0;
        c->target = fz_xform(f, 1);
        c->target_bad = f->tainted;
    }
    c->target_bad = c->target_bad || !fz_vec3_bounded(c->target.pos) ||
                    !fz_bounded(c->target.rot.x) || !fz_bounded(c->target.rot.y) ||
                    !fz_bounded(c->target.rot.z) || !fz_bounded(c->target.rot.w) ||
                    !ik_quat_is_unit(c->target.rot, IK_R(1e-4));
    if (fz_chance(f, 40))
        cl_cf_change(f, c);
    c->null_cf = cl_null(f);
    c->null_near = fz_chance(f, 48);
    c->null_weights = fz_chance(f, 96);
    cl_reals(f, c->state, c->near, c->jc, 0, &c->near_bad);
    c->near_bad = c->near_bad && !c->null_near;
    cl_reals(f, NULL, c->weights, c->jc, 1, &c->weights_bad);
    c->weights_bad = c->weights_bad && !c->null_weights;
    f->tainted = 0;
    c->swivel = fz_chance(f, 32) ? fz_real(f, 2) : (ik_real)cl_uniform(f, -4, 4);
    c->swivel_bad = !fz_bounded(c->swivel);
    {
        uint8_t m = fz_u8(f);
        c->max_out = m < 12 ? fz_int(f, -2, 0) : m < 80 ? fz_int(f, 1, 3) : fz_int(f, 1, CL_OUT);
    }
}

// The angle of the rotation from a to b (radians, double).
static double cl_angle(ik_quat a, ik_quat b)
{
    double aw = (double)a.w, ax = (double)a.x, ay = (double)a.y, az = (double)a.z;
    double bw = (double)b.w, bx = (double)b.x, by = (double)b.y, bz = (double)b.z;
    double w = aw * bw + ax * bx + ay * by + az * bz;
    double x = aw * bx - ax * bw - ay * bz + az * by;
    double y = aw * by + ax * bz - ay * bw - az * bx;
    double z = aw * bz - ax * by + ay * bx - az * bw;
    return 2 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}

// A solution's checks: finite, in range, its outside bits from cf's limits, its distance.
static void cl_check_solution(const cl_case *c, const ik_closed_solution *s)
{
    double d = 0, tol = 1e-6 * (1 + (double)s->distance);
    int j, outside = 0;
    FZ_CHECK(fz_all_finite(s->q, 7));
    FZ_CHECK(s->flags >= 0 && s->flags <= 15);
    FZ_CHECK(s->branch >= 0 && s->branch <= 7);
    FZ_CHECK(s->outside >= 0 && s->outside < 1 << c->jc);
    FZ_CHECK(!(s->flags & IK_CLOSED_WITHIN_LIMITS) == (s->outside != 0));
    FZ_CHECK(fz_finite(s->distance) && s->distance >= 0);
    if (c->jc == 6)
        FZ_CHECK(s->q[6] == 0);
    for (j = 0; j < c->jc; j++) {
        double n = c->null_near ? 0 : (double)c->near[j];
        double w = c->null_weights ? 1 : (double)c->weights[j];
        if (!(s->q[j] >= c->cf.lo[j] && s->q[j] <= c->cf.hi[j]))
            outside |= 1 << j;
        d += w * ((double)s->q[j] - n) * ((double)s->q[j] - n);
    }
    FZ_CHECK(s->outside == outside);
#ifdef IK_USE_FLOAT
    tol = 1e-3 * (1 + sqrt(d));
#endif
    FZ_CHECK(fabs(sqrt(d) - (double)s->distance) <= tol);
}

// The list's checks after IK_OK: counts, status, order; FK at the target when it is one.
static void cl_check_list(const cl_arm *arm, const cl_case *c, const ik_closed_solution *out,
                          const ik_closed_info *info, int fk_state_listed)
{
    int i;
    FZ_CHECK(info->branches >= 0 && info->branches <= 8);
    FZ_CHECK(info->count >= 0 && info->count <= c->max_out && info->total >= info->count);
    FZ_CHECK(info->count == (info->total < c->max_out ? info->total : c->max_out));
    FZ_CHECK(info->total >= info->branches);
    FZ_CHECK(fz_untouched(out + info->count, sizeof(*out) * (size_t)(CL_OUT - info->count)));
    FZ_CHECK(info->status == (info->branches == 0   ? IK_STATUS_UNREACHABLE
                              : out[0].outside == 0 ? IK_STATUS_CONVERGED
                                                    : IK_STATUS_LIMITED));
    for (i = 0; i < info->count; i++) {
        cl_check_solution(c, &out[i]);
        if (i > 0) { // within the limits first, then by distance
            FZ_CHECK(!(out[i - 1].outside != 0 && out[i].outside == 0));
            if ((out[i - 1].outside != 0) == (out[i].outside != 0))
                FZ_CHECK(out[i - 1].distance <= out[i].distance);
        }
    }
    if (!c->from_fk)
        return;
    if (fk_state_listed)
        FZ_CHECK(info->branches >= 1 && info->count >= 1);
    for (i = 0; i < info->count; i++) {
        ik_xform fk;
        double size = (double)c->cf.reach + fz_dist(c->target.pos, ik_vec3_zero());
        FZ_CHECK(ik_chain_fk(&arm->chain, out[i].q, NULL, &fk) == IK_OK);
        FZ_CHECK(fz_dist(fk.pos, c->target.pos) <= CL_FK_TOL * size);
        FZ_CHECK(cl_angle(fk.rot, c->target.rot) <= CL_FK_TOL);
    }
}

// ik_closed_form_solve or (with_swivel) ik_closed_form_solve_swivel.
static void cl_solve(fz *f, const cl_arm *arm, const cl_case *c, int with_swivel)
{
    static ik_closed_solution out[CL_OUT];
    ik_closed_info info;
    int null_out = cl_null(f), null_info = cl_null(f), null, bad;
    const ik_real *near = c->null_near ? NULL : c->near;
    const ik_real *weights = c->null_weights ? NULL : c->weights;
    const ik_closed_form *cf = c->null_cf ? NULL : &c->cf;
    ik_result r;
    memset(out, FZ_FILL, sizeof out);
    memset(&info, FZ_FILL, sizeof info);
    if (with_swivel)
        r = ik_closed_form_solve_swivel(cf, c->target, c->swivel, near, weights,
                                        null_out ? NULL : out, c->max_out,
                                        null_info ? NULL : &info);
    else
        r = ik_closed_form_solve(cf, c->target, near, weights, null_out ? NULL : out, c->max_out,
                                 null_info ? NULL : &info);
    null = c->null_cf || null_out || null_info;
    bad = c->cf_bad || c->max_out < 1 || c->target_bad || c->near_bad || c->weights_bad ||
          (with_swivel && c->swivel_bad);
    FZ_CHECK(r == IK_OK || r == IK_ERR_NULL_ARG || r == IK_ERR_BAD_ARG);
    if (r != IK_OK) {
        FZ_CHECK(fz_untouched(out, sizeof out) && fz_untouched(&info, sizeof info));
        FZ_CHECK(r == IK_ERR_NULL_ARG ? null : bad);
        FZ_CHECK(null || r == IK_ERR_BAD_ARG);
        FZ_CHECK(bad || r == IK_ERR_NULL_ARG);
        return;
    }
    FZ_CHECK(!null && !bad);
    // the state is an answer (6R; SRS only where the state's swivel is inside its range: at
    // the range's end, where the wrist turns singular, rounding may leave none)
    cl_check_list(arm, c, out, &info, c->cf.kind != IK_CLOSED_FORM_SRS);
}

// ik_closed_form_swivel of the state or the near state; a solve at the state's swivel.
static void cl_swivel(fz *f, const cl_arm *arm, cl_case *c)
{
    ik_real psi;
    int use_state = fz_u8(f) & 1, null_q = cl_null(f), null_out = cl_null(f), j;
    const ik_real *q = use_state ? c->state : c->near;
    int bad = c->null_cf ? 0 : c->cf.kind != IK_CLOSED_FORM_SRS;
    ik_result r;
    for (j = 0; j < 7; j++)
        bad = bad || !fz_bounded(q[j]);
    memset(&psi, FZ_FILL, sizeof psi);
    r = ik_closed_form_swivel(c->null_cf ? NULL : &c->cf, null_q ? NULL : q,
                              null_out ? NULL : &psi);
    if (r != IK_OK) {
        FZ_CHECK(fz_untouched(&psi, sizeof psi));
        FZ_CHECK(r == (c->null_cf || null_q || null_out ? IK_ERR_NULL_ARG : IK_ERR_BAD_ARG));
        FZ_CHECK(r == IK_ERR_NULL_ARG || bad);
        return;
    }
    FZ_CHECK(!bad && !c->null_cf && !null_q && !null_out);
    FZ_CHECK(fz_finite(psi) && psi >= -IK_PI && psi <= IK_PI);
    if (use_state && c->from_fk) { // the solve at the state's swivel
        c->swivel = psi;
        c->swivel_bad = 0;
        cl_solve(f, arm, c, 1);
    }
}

// ik_closed_form_swivel_intervals: finite, lo in -pi..pi, lo <= hi <= lo + 2 pi, by branch
// then lo.
static void cl_intervals(fz *f, const cl_case *c)
{
    static ik_swivel_interval out[CL_OUT];
    int count, null_out = cl_null(f), null_count = cl_null(f), i, n;
    int null = c->null_cf || null_out || null_count;
    int bad = c->cf.kind != IK_CLOSED_FORM_SRS || c->cf_bad || c->max_out < 1 || c->target_bad;
    ik_result r;
    memset(out, FZ_FILL, sizeof out);
    memset(&count, FZ_FILL, sizeof count);
    r = ik_closed_form_swivel_intervals(c->null_cf ? NULL : &c->cf, c->target,
                                        null_out ? NULL : out, c->max_out,
                                        null_count ? NULL : &count);
    if (r != IK_OK) {
        FZ_CHECK(fz_untouched(out, sizeof out) && fz_untouched(&count, sizeof count));
        FZ_CHECK(r == (null ? IK_ERR_NULL_ARG : IK_ERR_BAD_ARG));
        FZ_CHECK(null || bad);
        return;
    }
    FZ_CHECK(!null && !bad);
    FZ_CHECK(count >= 0);
    n = count < c->max_out ? count : c->max_out;
    FZ_CHECK(fz_untouched(out + n, sizeof(*out) * (size_t)(CL_OUT - n)));
    for (i = 0; i < n; i++) {
        const ik_swivel_interval *v = &out[i];
        FZ_CHECK(fz_finite(v->lo) && fz_finite(v->hi));
        FZ_CHECK(v->lo >= -IK_PI && v->lo <= IK_PI);
        FZ_CHECK(v->lo <= v->hi && v->hi <= v->lo + 2 * IK_PI);
        FZ_CHECK(v->branch >= 0 && v->branch <= 7);
        if (i > 0)
            FZ_CHECK(out[i - 1].branch < v->branch ||
                     (out[i - 1].branch == v->branch && out[i - 1].lo <= v->lo));
    }
}

FUZZ_TARGET(closed)
{
    fz f = fz_begin(data, size);
    static cl_arm arm;
    static cl_case c;
    ik_closed_form cf;
    int kind;
    cl_nulls = fz_u8(&f) >= 160;
    cl_arm_make(&f, &arm);
    kind = cl_classify(&f, &arm, &cf);
    c.cf = cf;
    cl_case_make(&f, &arm, kind, &c);
    cl_solve(&f, &arm, &c, 0);
    cl_solve(&f, &arm, &c, 1);
    cl_intervals(&f, &c);
    cl_swivel(&f, &arm, &c);
    return 0;
}
