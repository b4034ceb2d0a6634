/* skeleton_cases.h - random problems on skeletons for bench.c's --skeleton tables and for
   bench/kdl_tree.cpp (ik.h against Orocos KDL's tree solver): random states within a skeleton's
   limits, effector targets from their forward kinematics, and each effector's error measured
   from the skeleton's own frames. Include after ik.h (C99 or C++). No allocation; the random
   numbers come from the caller's state, so that two programs draw the same problems. */
#ifndef IK_BENCH_SKELETON_CASES_H
#define IK_BENCH_SKELETON_CASES_H

#include <math.h>

#define SKC_MAX_JOINTS   256
#define SKC_AIM_DISTANCE 1.0 // an aim effector's target: this far along its axis (m)

// A uniform number in [lo, hi) from the state *s (a 64-bit LCG).
static inline double skc_rnd(unsigned long long *s, double lo, double hi)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(*s >> 11) / 9007199254740992.0;
}

// A joint's value clamped into its limits.
// Bytes of scratch for count effectors of any kinds on s (as if every one were a full pose).
static inline size_t skc_scratch_size(const ik_skeleton *s, int count)
{
    ik_effector e[64];
    int k;
    for (k = 0; k < count && k < 64; k++)
        e[k] = ik_effector_make(0, ik_xform_identity(), IK_EFFECTOR_POSE, ik_vec3_zero());
    return ik_skeleton_scratch_size(s, e, count);
}

static inline ik_real skc_clamp(const ik_joint *j, double v)
{
    return (ik_real)(v < (double)j->lo ? (double)j->lo : (v > (double)j->hi ? (double)j->hi : v));
}

// A ball joint's exponential map v moved into its limit (if it has one).
static inline ik_vec3 skc_ball_within(const ik_joint *j, ik_vec3 v)
{
    if (!j->limit || ik_ball_limit_contains(j->limit, ik_quat_from_expmap(v)))
        return v;
    return ik_quat_to_expmap(ik_ball_limit_project(j->limit, ik_quat_from_expmap(v)));
}

// A random state within the skeleton's limits: hinges uniform over their range (at most
// +-pi), prismatic joints over theirs (at most +-travel), balls a random rotation vector (each
// component within +-1.2 rad) drawn again until it is within the limit, each draw from a range
// 0.8 times the last (20 draws, then projected onto the limit): a tight cone's states spread
// over its inside rather than piled on its boundary.
static inline void skc_random_state(const ik_skeleton *s, unsigned long long *rng, double travel,
                                    ik_real *q)
{
    int i, c = 0, k;
    for (i = 0; i < s->joint_count; i++) {
        const ik_joint *j = &s->joints[i];
        if (j->type == IK_JOINT_BALL) {
            ik_vec3 v = ik_vec3_make(0, 0, 0);
            double range = 1.2;
            for (k = 0; k < 20; k++, range *= 0.8) {
                v = ik_vec3_make((ik_real)skc_rnd(rng, -range, range),
                                 (ik_real)skc_rnd(rng, -range, range),
                                 (ik_real)skc_rnd(rng, -range, range));
                if (!j->limit || ik_ball_limit_contains(j->limit, ik_quat_from_expmap(v)))
                    break;
            }
            v = skc_ball_within(j, v);
            q[c] = v.x, q[c + 1] = v.y, q[c + 2] = v.z;
            c += 3;
        } else if (j->type != IK_JOINT_FIXED) {
            double span = j->type == IK_JOINT_PRISMATIC ? travel : 3.141592653589793;
            double lo = (double)j->lo > -span ? (double)j->lo : -span;
            double hi = (double)j->hi < span ? (double)j->hi : span;
            q[c++] = (ik_real)skc_rnd(rng, lo, hi);
        }
    }
}

// q moved by up to `step` (rad or m) in every value, then into the limits.
static inline void skc_perturb(const ik_skeleton *s, unsigned long long *rng, double step,
                               ik_real *q)
{
    int i, c = 0;
    for (i = 0; i < s->joint_count; i++) {
        const ik_joint *j = &s->joints[i];
        if (j->type == IK_JOINT_BALL) {
            ik_vec3 v = ik_vec3_make(q[c] + (ik_real)skc_rnd(rng, -step, step),
                                     q[c + 1] + (ik_real)skc_rnd(rng, -step, step),
                                     q[c + 2] + (ik_real)skc_rnd(rng, -step, step));
            v = skc_ball_within(j, v);
            q[c] = v.x, q[c + 1] = v.y, q[c + 2] = v.z;
            c += 3;
        } else if (j->type != IK_JOINT_FIXED) {
            q[c] = skc_clamp(j, (double)q[c] + skc_rnd(rng, -step, step));
            c++;
        }
    }
}

// Whether q is within every joint's limits (balls: their limit holds the rotation).
static inline bool skc_within_limits(const ik_skeleton *s, const ik_real *q)
{
    int i, c = 0;
    for (i = 0; i < s->joint_count; i++) {
        const ik_joint *j = &s->joints[i];
        if (j->type == IK_JOINT_BALL) {
            if (j->limit && !ik_ball_limit_contains(j->limit, ik_quat_from_expmap(ik_vec3_make(
                                                                  q[c], q[c + 1], q[c + 2]))))
                return false;
            c += 3;
        } else if (j->type != IK_JOINT_FIXED) {
            if (!(q[c] >= j->lo && q[c] <= j->hi))
                return false;
            c++;
        }
    }
    return true;
}

// The world frame of effector e at the joints' frames.
static inline ik_xform skc_effector_frame(const ik_xform *frames, const ik_effector *e)
{
    return ik_xform_mul(frames[e->joint], e->offset);
}

// Every effector's target set to where it is at state q (aim: a point SKC_AIM_DISTANCE along its
// axis; direction: its axis).
static inline void skc_targets_at(const ik_skeleton *s, const ik_real *q, ik_effector *e, int count)
{
    ik_xform frames[SKC_MAX_JOINTS];
    int k;
    ik_skeleton_fk(s, q, frames);
    for (k = 0; k < count; k++) {
        ik_xform f = skc_effector_frame(frames, &e[k]);
        ik_vec3 axis = ik_quat_rotate(f.rot, e[k].axis);
        e[k].target = f.pos;
        e[k].target_rot = f.rot;
        if (e[k].kind == IK_EFFECTOR_AIM)
            e[k].target = ik_vec3_add_scaled(f.pos, axis, (ik_real)SKC_AIM_DISTANCE);
        if (e[k].kind == IK_EFFECTOR_DIRECTION)
            e[k].target = axis;
    }
}

// The angle between unit vectors a and b, accurate when small.
static inline double skc_angle(ik_vec3 a, ik_vec3 b)
{
    return atan2((double)ik_vec3_length(ik_vec3_cross(a, b)), (double)ik_vec3_dot(a, b));
}

// The largest position error (m) and angle error (rad) over the effectors at state q, each
// measured here from ik_skeleton_fk()'s frames (not the solver's report).
static inline void skc_errors(const ik_skeleton *s, const ik_real *q, const ik_effector *e,
                              int count, double *pos_err, double *rot_err)
{
    ik_xform frames[SKC_MAX_JOINTS];
    int k;
    *pos_err = *rot_err = 0;
    ik_skeleton_fk(s, q, frames);
    for (k = 0; k < count; k++) {
        ik_xform f = skc_effector_frame(frames, &e[k]);
        ik_vec3 axis = ik_quat_rotate(f.rot, ik_vec3_normalize(e[k].axis));
        double p = 0, r = 0;
        if (e[k].kind == IK_EFFECTOR_POSITION || e[k].kind == IK_EFFECTOR_POSE ||
            e[k].kind == IK_EFFECTOR_FREE_AXIS)
            p = (double)ik_vec3_length(ik_vec3_sub(f.pos, e[k].target));
        if (e[k].kind == IK_EFFECTOR_POSE) {
            ik_quat d = ik_quat_mul(ik_quat_conjugate(ik_quat_normalize(e[k].target_rot)), f.rot);
            r = 2 * atan2((double)ik_vec3_length(ik_vec3_make(d.x, d.y, d.z)), fabs((double)d.w));
        } else if (e[k].kind == IK_EFFECTOR_AIM) {
            r = skc_angle(axis, ik_vec3_normalize(ik_vec3_sub(e[k].target, f.pos)));
        } else if (e[k].kind == IK_EFFECTOR_DIRECTION) {
            r = skc_angle(axis, ik_vec3_normalize(e[k].target));
        } else if (e[k].kind == IK_EFFECTOR_FREE_AXIS) {
            r = skc_angle(axis, ik_quat_rotate(ik_quat_normalize(e[k].target_rot),
                                               ik_vec3_normalize(e[k].axis)));
        }
        *pos_err = p > *pos_err ? p : *pos_err;
        *rot_err = r > *rot_err ? r : *rot_err;
    }
}

// Whether every effector is within pos_tol (m) and rot_tol (rad) of its target at q.
static inline bool skc_met(const ik_skeleton *s, const ik_real *q, const ik_effector *e, int count,
                           double pos_tol, double rot_tol)
{
    double p, r;
    skc_errors(s, q, e, count, &p, &r);
    return p <= pos_tol && r <= rot_tol;
}

#endif
