/* ik.h v0.16.0 - inverse kinematics in one C99/C++ header. No allocation. License: end of file.

   Do this in *one* C or C++ file (elsewhere just #include "ik.h"):
       #define IK_IMPLEMENTATION
       #include "ik.h"

   QUICK START
       A two-link planar arm (hinges about z, links of length 1 along x) reaches the point (1, 1):

           #define IK_IMPLEMENTATION
           #include "ik.h"
           #include <stdio.h>
           int main(void)
           {
               ik_joint arm[2];
               arm[0] = ik_joint_revolute(ik_xform_identity(), ik_vec3_make(0, 0, 1));
               arm[1] = ik_joint_revolute(ik_xform_translation(ik_vec3_make(1, 0, 0)),
                                          ik_vec3_make(0, 0, 1));
               ik_chain chain = ik_chain_make(arm, 2, ik_xform_translation(ik_vec3_make(1, 0, 0)));
               ik_target goal = ik_target_position(ik_vec3_make(1, 1, 0));
               ik_jacobian_opts opts = ik_default_jacobian_opts();
               ik_real q[2] = { 0.3, -0.3 };      // the start; the answer on return
               unsigned char scratch[2048];       // >= ik_jacobian_scratch_size(&chain)
               ik_solve_info info;
               if (ik_jacobian_solve(&chain, &goal, &opts, q, scratch, sizeof scratch, &info))
                   return 1;                      // an IK_ERR_* code: bad input, q untouched
               printf("q = (%.4f, %.4f): %s\n", q[0], q[1], ik_status_string(info.status));
               return info.status == IK_STATUS_CONVERGED ? 0 : 1;
           }

       examples/ holds more (make demo runs some of them and draws pictures); README.md and
       docs/ explain the rest, docs/guide.md which solver to use when.

   CONVENTIONS
       Right-handed frames, column vectors (p' = R p), radians, metres or any unit you like.
       ik_quat is {x, y, z, w} with w the scalar part; rotations are unit quaternions, q and -q are
       the same rotation. ik_mat3 is m[row][col]. ik_xform is a rigid transform {rot, pos}: it
       rotates a point, then translates it (p' = rot * p + pos); a * b applies b first.
       Exponential map (Grassia 1998): v = angle * unit_axis, |v| is the full rotation angle (not
       the half angle of D3DX's log-quaternion). Euler angles: ik_euler_order names the axes left
       to right, R = R_first(e.x) * R_second(e.y) * R_third(e.z) (yaw-pitch-roll with yaw about y,
       pitch about x, roll about z is IK_EULER_YXZ; URDF rpy is IK_EULER_ZYX with e = (y, p, r)).
       A chain is a list of joints from the root to the tip. Joint i's frame in the chain's root
       ("model") frame is  F_i = F_{i-1} * joint[i].origin * motion_i(q),  where motion is a
       rotation about joint[i].axis (revolute), a translation along it (prismatic), exp(v) (ball)
       or nothing (fixed); the effector is F_{n-1} * chain.tip. The joint-state vector q holds one
       value per revolute or prismatic joint and three (an exponential map) per ball joint, in
       chain order. docs/conventions.md says all of this at length.

   CONFIGURATION                                          where to set
       IK_IMPLEMENTATION   emit the definitions           one translation unit
       IK_USE_FLOAT        ik_real is float, not double   every translation unit (ABI changes)
       IK_STATIC           private copy (static linkage)  the implementation unit
       IKDEF               linkage of every function      every translation unit
       IK_SQRT IK_SIN IK_COS IK_ATAN2 IK_FABS             every translation unit, all or none
                           replace the libm calls
       IK_ASSERT(c)        internal invariants (off)      the implementation unit
       IK_NO_FAST_PATHS    the general code everywhere    the implementation unit
                           (for testing: no joint tables' turns, planar passes and steps, closed
                           forms, unweighted normal equations, CCD's lean sweeps and skipped
                           final FK, FABRIK's points-only iterations; the same answers within
                           rounding, slower)
       IK_MAX_JOINTS       largest joint count (4096)     every translation unit
       IK_MAX_EFFECTORS    most effectors a solve (64)    every translation unit
       Units that disagree on IK_USE_FLOAT do not link (gcc, clang; not with IK_STATIC): the
       linker reports an undefined reference to ik_link_error_IK_USE_FLOAT_mismatch_ik_real_
       is_float_here_but_no_IK_IMPLEMENTATION_unit_has_float (or ..._double_...) in the unit
       whose ik_real differs from the implementation's.
       Compiler options: -O3, -ffast-math, -ffinite-math-only are fine (finiteness is checked
       on the bits; results agree within rounding, not bit for bit) and so are trapped
       floating-point exceptions; -Wfloat-equal is off inside the implementation only
       (docs/robustness.md, "Compiler options").

   MATHS
       Small value types and the conversions between rotation representations: quaternion,
       matrix, axis-angle, exponential map, Euler angles; slerp and the single-axis interpolation
       between two orientations; shortest arc between two vectors; swing-twist decomposition.
       Conversions are total: zero or non-unit input gets the documented answer (a unit result,
       the identity for a zero quaternion or axis), never NaN for finite input. A non-finite input
       to a conversion gives the identity (or zero vector). Plain vector arithmetic (ik_vec3_add,
       ...) is IEEE arithmetic and propagates whatever it is given.
       Ball-joint limits: ik_ball_limit holds a swing cone (elliptical, up to pi each way) and a
       twist range about the bone; ik_ball_limit_project() gives the nearest allowed rotation.

   CHAIN, FORWARD KINEMATICS, JACOBIAN
       ik_chain_fk() gives the effector pose and every joint frame, O(n). ik_chain_jacobian()
       gives the 3 x dof (position) or 6 x dof (position, then angular velocity) geometric
       Jacobian with respect to q, exact for ball joints' exponential-map coordinates. Helpers
       build joints from URDF <joint> data and from classic or modified Denavit-Hartenberg tables.

   SVD
       ik_svd() is a one-sided Jacobi SVD of any m x n matrix (IK uses m <= 6 rows and n up to
       hundreds of columns); ik_svd_pinv() and ik_svd_damped_pinv() give the Moore-Penrose and the
       damped pseudo-inverse. Memory comes from the caller (ik_svd_scratch_size()).

   SOLVERS
       Which one: a limb of a character or a 7-joint arm with an elbow (3-1-3 joints) -> the
       analytic ik_limb_solve(), exact and constant time; long chains, dragging, rough answers
       fast, ball joints with stiffness -> ik_ccd_solve(); precise answers, full poses of robot
       arms, joint limits with a rest pose -> ik_jacobian_solve() (DLS by default).
       Each takes q in/out (the start on entry, the answer on exit) and reports in ik_solve_info.

       ik_limb_solve()   analytic 7-DOF limb: shoulder (3) - elbow hinge (1) - wrist (3), as in
                         arms, legs and many 7-DOF robot arms. Closed form (after Tolani, Goswami
                         and Badler 2000), constant time, exact to rounding, no scratch. The
                         elbow bends toward a pole target or takes a swivel angle; position only
                         (the two-bone IK of games) or position and orientation; any bone and
                         hinge axes; an optional soft reach; continuous along a path (pass the
                         previous answer in q); optional limits (elbow range, shoulder and wrist
                         cones and twists: the swivel moves to keep them, the target still met
                         where it can be), and ik_limb_humanoid() for human arms and legs.
                         Prepared once for many solves (ik_limb_prepare()); q = NULL for
                         rotations in and out (ik_limb_pose), the fastest way to drive a
                         skeleton (docs/limb.md).
       ik_ccd_solve()    cyclic coordinate descent on any chain (revolute, prismatic, ball joints),
                         with Welman's position + orientation objective: each joint in turn, tip to
                         root, takes the move that best aligns the effector with the target (closed
                         form per joint). Robust near singularities, cheap per sweep (O(n), and
                         no trigonometry per joint for revolute joints without limits or
                         stiffness), converges linearly; distal joints move most. Joint weights
                         (stiffness), limits (ball joints' cones and twist: each move
                         projected), a per-sweep step limit for smooth dragging. Ignores
                         a rest pose (no null space). Scratch from the caller
                         (ik_ccd_scratch_size()). A chain solved many times is prepared once
                         (ik_ccd_prepare(), ik_ccd_solve_prepared(): a third less work for a
                         sweep per frame).
       ik_fabrik_solve() FABRIK (forward and backward reaching) on any chain: the points where
                         joints pivot moved from the target back and from the root out, as
                         forward kinematics through the joints (hinges by their planes, limits
                         and ball limits clamped on the way), joint values written back: free
                         ball chains a few tens of ns per joint per iteration, converging in tens
                         of iterations; hinge chains slower and less often (docs/fabrik.md).
                         ik_skeleton_fabrik_solve() is FABRIK on a skeleton with several position
                         and pose effectors (sub-bases: branches' goals fitted to their offers).
       ik_jacobian_solve() Jacobian IK on any chain, position or full pose: damped least squares
                         (default: adaptive damping near singularities), SVD pseudo-inverse,
                         selectively damped least squares, or the Jacobian transpose. Ball joints
                         in exponential-map coordinates (or Euler angles, for comparison); limits
                         by an active set (a limited ball joint slides along its cone and twist
                         boundary), a null-space pull toward a rest pose, step clamping
                         for dragging. Converges quadratically near the target, O(n) per
                         iteration (a few times a CCD sweep). Local: a start far from every
                         answer can stall in a local minimum. Scratch from the caller.
       ik_arm_solve()    pose or position IK for serial robot arms (6-DOF, 7-DOF, any chain):
                         the Jacobian solver from the start (or from a closed form, for arms that
                         have one), then restarts from random states within the joint limits
                         (seeded: the same inputs give the same answer) until one converges, the
                         attempts run out or the caller's stop callback says so (ik.h reads no
                         clock). Every joint within its limits. docs/benchmarks.md has its solve
                         rates on the KUKA iiwa, Franka Panda and UR5 against Orocos KDL.
       ik_closed_form_solve() every solution of a 6R arm in closed form, for arms with a
                         spherical wrist and axes 2, 3 parallel (ABB, KUKA KR, Fanuc, Staubli) or
                         with axes 2, 3, 4 parallel (the UR family), recognised from the chain's
                         geometry by ik_chain_closed_form() (which says why where it cannot): up
                         to 8 answers with their whole-turn equivalents within the limits,
                         flagged for limits and singularities, nearest a given state first. For
                         7-DOF arms with a spherical shoulder and wrist (KUKA iiwa, a human arm)
                         the 8 answers at a given elbow swivel, and the swivel intervals where
                         every joint is within its limits (docs/closed-forms.md).
       ik_skeleton_solve() Jacobian IK on a tree of joints (ik_skeleton: the joints and their
                         parents; a chain is the one-branch case, a floating root four joints)
                         with several effectors at once: positions, full poses, aims (look-at),
                         directions, positions with a free axis; per-effector weights and blend;
                         two priorities (the second in the null space of the first). Every
                         effector's rows stacked into the one step of ik_jacobian_solve(): the
                         same methods, limits and rest pose; ik_skeleton_ccd_solve() is CCD
                         over the same effectors. A skeleton solved every frame with the same
                         effectors is prepared once (ik_skeleton_prepare(),
                         ik_skeleton_solve_prepared()). bench/humanoid.h is a humanoid to start
                         from (docs/skeletons.md).
       make bench prints what each solver costs on your machine (docs/benchmarks.md).

   ERRORS
       Functions that can fail return ik_result: IK_OK or an IK_ERR_* code (ik_result_string()
       names it). Every input is checked before any output is written: on error the caller's
       outputs are untouched. Real inputs must be finite and at most IK_MAX_MAGNITUDE in size
       (joint limits may be infinite). Solver outcomes (converged, unreachable, ...) are not
       errors: they come back as IK_OK plus an ik_status in ik_solve_info.

   MEMORY AND THREADS
       ik.h never allocates and has no global or static mutable state: every function is
       reentrant and thread-safe. Memory that grows with the problem is passed in by the caller
       (ik_*_scratch_size() says how much; a too small buffer is IK_ERR_SCRATCH_TOO_SMALL). Two
       threads may share a chain and options (read only) but each needs its own q and scratch.

   ik.h DOES NOT load skeletons or URDF files, blend animations, render, or check collisions
   (it solves skeletons you build from your own data).

   Changes: CHANGELOG.md.
*/
#ifndef IK_H_INCLUDED
#define IK_H_INCLUDED

#define IK_VERSION_MAJOR  0
#define IK_VERSION_MINOR  16
#define IK_VERSION_PATCH  0
#define IK_VERSION_STRING "0.16.0"

// ---- config ------------------------------------------------------------------------------------
#include <math.h>
#include <stddef.h>
#include <stdbool.h>
#include <string.h>
#include <float.h>

#ifdef IK_USE_FLOAT
typedef float ik_real;
#define IK_R(x)      ((float)(x))
#define IK_EPSILON   FLT_EPSILON
#define IK__REAL_MIN FLT_MIN
#define IK__REAL_MAX FLT_MAX
#define IK__MATH(fn) fn##f
#define IK_REAL_FMT  "float"
#else
typedef double ik_real;
#define IK_R(x)      ((double)(x))
#define IK_EPSILON   DBL_EPSILON
#define IK__REAL_MIN DBL_MIN
#define IK__REAL_MAX DBL_MAX
#define IK__MATH(f)  f
#define IK_REAL_FMT  "double"
#endif

#if defined(IK_SQRT) || defined(IK_SIN) || defined(IK_COS) || defined(IK_ATAN2) || defined(IK_FABS)
#if !defined(IK_SQRT) || !defined(IK_SIN) || !defined(IK_COS) || !defined(IK_ATAN2) ||             \
    !defined(IK_FABS)
#error "ik.h: define all of IK_SQRT, IK_SIN, IK_COS, IK_ATAN2, IK_FABS or none of them"
#endif
#else
#define IK_SQRT(x)     IK__MATH(sqrt)(x)
#define IK_SIN(x)      IK__MATH(sin)(x)
#define IK_COS(x)      IK__MATH(cos)(x)
#define IK_ATAN2(y, x) IK__MATH(atan2)(y, x)
#define IK_FABS(x)     IK__MATH(fabs)(x)
#endif

#ifndef IK_MAX_JOINTS
#define IK_MAX_JOINTS 4096 // most joints in one chain (bounds counts, not memory)
#endif
#define IK_MAX_MAGNITUDE IK_R(1e12) // largest |x| ik.h accepts for a length or joint value
#define IK_PI            IK_R(3.14159265358979323846)
#define IK_INFINITY      ((ik_real)HUGE_VAL) // "no limit" for ik_joint.lo / hi

#if defined(__GNUC__) || defined(__clang__)
#define IK__UNUSED        __attribute__((unused))
#define IK__NOINLINE      __attribute__((noinline))
#define IK__ALWAYS_INLINE __attribute__((always_inline))
#else
#define IK__UNUSED
#define IK__NOINLINE
#define IK__ALWAYS_INLINE
#endif
#ifndef IKDEF
#ifdef IK_STATIC
#define IKDEF static IK__UNUSED
#else
#define IKDEF extern
#endif
#endif
#define IK_INLINE static inline

#ifdef __cplusplus
extern "C" {
#endif

// ---- types -------------------------------------------------------------------------------------

// A 3-vector.
typedef struct ik_vec3 {
    ik_real x, y, z;
} ik_vec3;

// A quaternion {x, y, z, w}, w the scalar part. Rotations are unit quaternions.
typedef struct ik_quat {
    ik_real x, y, z, w;
} ik_quat;

// A 3 x 3 matrix, m[row][col]; it multiplies column vectors.
typedef struct ik_mat3 {
    ik_real m[3][3];
} ik_mat3;

// A rigid transform: p' = rot * p + pos.
typedef struct ik_xform {
    ik_quat rot; // unit quaternion
    ik_vec3 pos; // translation
} ik_xform;

// What a function that can fail returns. Errors are negative.
typedef enum ik_result {
    IK_OK = 0,
    IK_ERR_NULL_ARG = -1,          // a required pointer is NULL
    IK_ERR_BAD_ARG = -2,           // NaN/Inf, too large, zero or non-unit axis, count out of range
    IK_ERR_BAD_OPTS = -3,          // options not from ik_default_*_opts(), or a field out of range
    IK_ERR_SCRATCH_TOO_SMALL = -4, // scratch smaller than the matching *_scratch_size() says
    IK_ERR_NUMERIC = -5            // a numerical breakdown was caught; outputs untouched
} ik_result;

// How a solve ended. Every one of these comes with IK_OK: an outcome, not an error.
typedef enum ik_status {
    IK_STATUS_CONVERGED = 0,      // within the tolerances
    IK_STATUS_MAX_ITERATIONS = 1, // ran out of iterations while still improving
    IK_STATUS_STALLED = 2,        // stopped improving away from the target (local minimum, limits)
    IK_STATUS_UNREACHABLE = 3,    // the target is out of reach; the closest pose was returned
    IK_STATUS_LIMITED = 4 // the target was missed because of joint limits; the closest pose within
                          // them was returned (ik_limb_solve() with limits)
} ik_status;

// What a solver reports besides its ik_result.
typedef struct ik_solve_info {
    ik_status status;
    int iterations;         // iterations (or sweeps) used
    ik_real position_error; // |effector position - target position|, model units
    ik_real rotation_error; // angle between effector and target orientation, radians (0 if unused)
} ik_solve_info;

// Short English description of r, e.g. "scratch buffer too small". Never NULL.
IKDEF const char *ik_result_string(ik_result r);
// Short English name of s, e.g. "converged". Never NULL.
IKDEF const char *ik_status_string(ik_status s);
// sizeof(ik_real): 4 with IK_USE_FLOAT, else 8. Lets a program check that every TU agrees.
IKDEF int ik_real_size(void);

// The link check of CONFIGURATION: every unit refers to the function named for its ik_real.
#if !defined(IK_STATIC) && (defined(__GNUC__) || defined(__clang__))
#ifdef IK_USE_FLOAT
#define IK__REAL_CHECK                                                                             \
    ik_link_error_IK_USE_FLOAT_mismatch_ik_real_is_float_here_but_no_IK_IMPLEMENTATION_unit_has_float
#else
#define IK__REAL_CHECK                                                                             \
    ik_link_error_IK_USE_FLOAT_mismatch_ik_real_is_double_here_but_no_IK_IMPLEMENTATION_unit_has_double
#endif
IKDEF int IK__REAL_CHECK(void);
// (kept by `used` although nothing reads it, so that every unit refers to the function)
static int (*const ik__real_check)(void) __attribute__((used)) = IK__REAL_CHECK;
#endif

// ---- math --------------------------------------------------------------------------------------

// The vector (x, y, z).
IK_INLINE ik_vec3 ik_vec3_make(ik_real x, ik_real y, ik_real z)
{
    ik_vec3 v = { x, y, z };
    return v;
}
// The zero vector.
IK_INLINE ik_vec3 ik_vec3_zero(void)
{
    return ik_vec3_make(0, 0, 0);
}
// a + b.
IK_INLINE ik_vec3 ik_vec3_add(ik_vec3 a, ik_vec3 b)
{
    return ik_vec3_make(a.x + b.x, a.y + b.y, a.z + b.z);
}
// a - b.
IK_INLINE ik_vec3 ik_vec3_sub(ik_vec3 a, ik_vec3 b)
{
    return ik_vec3_make(a.x - b.x, a.y - b.y, a.z - b.z);
}
// s * v.
IK_INLINE ik_vec3 ik_vec3_scale(ik_vec3 v, ik_real s)
{
    return ik_vec3_make(v.x * s, v.y * s, v.z * s);
}
// -v.
IK_INLINE ik_vec3 ik_vec3_negate(ik_vec3 v)
{
    return ik_vec3_make(-v.x, -v.y, -v.z);
}
// a + s * b (multiply-add).
IK_INLINE ik_vec3 ik_vec3_add_scaled(ik_vec3 a, ik_vec3 b, ik_real s)
{
    return ik_vec3_make(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z);
}
// a . b.
IK_INLINE ik_real ik_vec3_dot(ik_vec3 a, ik_vec3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
// a x b (right-handed).
IK_INLINE ik_vec3 ik_vec3_cross(ik_vec3 a, ik_vec3 b)
{
    return ik_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
// |v|^2.
IK_INLINE ik_real ik_vec3_length2(ik_vec3 v)
{
    return ik_vec3_dot(v, v);
}
// |v|.
IK_INLINE ik_real ik_vec3_length(ik_vec3 v)
{
    return IK_SQRT(ik_vec3_dot(v, v));
}
// (1 - t) a + t b.
IK_INLINE ik_vec3 ik_vec3_lerp(ik_vec3 a, ik_vec3 b, ik_real t)
{
    return ik_vec3_add_scaled(a, ik_vec3_sub(b, a), t);
}
// Unit vector along v; the zero vector if v is zero, subnormal or not finite.
IKDEF ik_vec3 ik_vec3_normalize(ik_vec3 v);
// A unit vector perpendicular to v (a stable choice); (1, 0, 0) if v is zero or not finite.
IKDEF ik_vec3 ik_vec3_any_perpendicular(ik_vec3 v);
// true if every component is finite.
IKDEF bool ik_vec3_is_finite(ik_vec3 v);

// The quaternion {x, y, z, w}.
IK_INLINE ik_quat ik_quat_make(ik_real x, ik_real y, ik_real z, ik_real w)
{
    ik_quat q = { x, y, z, w };
    return q;
}
// The identity rotation {0, 0, 0, 1}.
IK_INLINE ik_quat ik_quat_identity(void)
{
    return ik_quat_make(0, 0, 0, 1);
}
// Hamilton product a * b: the rotation b followed by a.
IK_INLINE ik_quat ik_quat_mul(ik_quat a, ik_quat b)
{
    return ik_quat_make(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                        a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                        a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                        a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}
// Conjugate {-x, -y, -z, w}: the inverse of a unit quaternion.
IK_INLINE ik_quat ik_quat_conjugate(ik_quat q)
{
    return ik_quat_make(-q.x, -q.y, -q.z, q.w);
}
// Four-component dot product a . b.
IK_INLINE ik_real ik_quat_dot(ik_quat a, ik_quat b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
// v rotated by the unit quaternion q (q v q*).
IK_INLINE ik_vec3 ik_quat_rotate(ik_quat q, ik_vec3 v)
{
    // v' = v + 2w (u x v) + 2 u x (u x v), u = (x, y, z)
    ik_vec3 u = ik_vec3_make(q.x, q.y, q.z);
    ik_vec3 t = ik_vec3_scale(ik_vec3_cross(u, v), 2);
    return ik_vec3_add(ik_vec3_add_scaled(v, t, q.w), ik_vec3_cross(u, t));
}
// q / |q|; the identity if q is zero, subnormal or not finite.
IKDEF ik_quat ik_quat_normalize(ik_quat q);
// true if q is finite and ||q|^2 - 1| <= tolerance.
IKDEF bool ik_quat_is_unit(ik_quat q, ik_real tolerance);
// Rotation by angle (radians) about axis (normalized here); the identity if axis is zero.
IKDEF ik_quat ik_quat_from_axis_angle(ik_vec3 axis, ik_real angle);
// Angle in [0, pi] of q (normalized here) and its unit axis in *out_axis (may be NULL). At
// angle 0 the axis is (1, 0, 0). q and -q give the same answer.
IKDEF ik_real ik_quat_to_axis_angle(ik_quat q, ik_vec3 *out_axis);
// exp of an exponential map v = angle * axis (Grassia 1998): the rotation by |v| about v.
// Accurate at and near 0 (series) and for any |v|.
IKDEF ik_quat ik_quat_from_expmap(ik_vec3 v);
// log of q (normalized here) as an exponential map with |v| in [0, pi]: q and -q give the same v.
// atan2-based, accurate near 0 and near pi.
IKDEF ik_vec3 ik_quat_to_expmap(ik_quat q);
// The exponential map of the same rotation as v with |v| <= pi (Grassia's reparameterisation:
// v (1 - 2 pi / |v|) when |v| > pi, repeated for |v| beyond 3 pi).
IKDEF ik_vec3 ik_expmap_reparameterize(ik_vec3 v);
// d/dt exp(v(t)) = [w]x exp(v) with w = ik_expmap_jacobian(v) * dv/dt: the left Jacobian of
// SO(3), I + (1 - cos a)/a^2 [v]x + (a - sin a)/a^3 [v]x^2, a = |v|; series near 0; beyond
// IK_MAX_MAGNITUDE its limit n n^T (n = v / |v|), within 1e-12.
IKDEF ik_mat3 ik_expmap_jacobian(ik_vec3 v);
// Rotation matrix of q (normalized here).
IKDEF ik_mat3 ik_quat_to_mat3(ik_quat q);
// Unit quaternion of a rotation matrix, w >= 0 (Shepperd's branch on the largest diagonal).
// A matrix that is not a rotation gives the normalized result of the same formula.
IKDEF ik_quat ik_quat_from_mat3(ik_mat3 m);
// Shortest-arc rotation taking direction from to direction to (both normalized here). Opposite
// vectors give a half turn about ik_vec3_any_perpendicular(from); a zero vector, the identity.
IKDEF ik_quat ik_quat_from_two_vectors(ik_vec3 from, ik_vec3 to);
// Spherical linear interpolation from a (t = 0) to b (t = 1) along the shorter arc; t outside
// [0, 1] extrapolates. Inputs normalized here. A non-finite t, or one so large that
// t log(a^-1 b) overflows, gives a.
IKDEF ik_quat ik_quat_slerp(ik_quat a, ik_quat b, ik_real t);
// Splits q = swing * twist, twist a rotation about twist_axis and swing a rotation about an
// axis perpendicular to it. A zero twist_axis, or a half-turn swing that leaves no twist,
// gives twist = identity. Either output may be NULL.
IKDEF void ik_quat_swing_twist(ik_quat q, ik_vec3 twist_axis, ik_quat *out_swing,
                               ik_quat *out_twist);

// The 3 x 3 identity.
IKDEF ik_mat3 ik_mat3_identity(void);
// a * b.
IKDEF ik_mat3 ik_mat3_mul(ik_mat3 a, ik_mat3 b);
// m^T (the inverse of a rotation).
IKDEF ik_mat3 ik_mat3_transpose(ik_mat3 m);
// m * v.
IKDEF ik_vec3 ik_mat3_mul_vec3(ik_mat3 m, ik_vec3 v);

// Order of Euler (Tait-Bryan) angles: R = R_a(e.x) * R_b(e.y) * R_c(e.z) for IK_EULER_abc.
typedef enum ik_euler_order {
    IK_EULER_XYZ,
    IK_EULER_XZY,
    IK_EULER_YXZ, // yaw (y), pitch (x), roll (z): the reference Jacobian IK's order
    IK_EULER_YZX,
    IK_EULER_ZXY,
    IK_EULER_ZYX // yaw (z), pitch (y), roll (x): URDF rpy and aerospace
} ik_euler_order;
// Rotation matrix of Euler angles e in the given order. An unknown order gives the identity.
IKDEF ik_mat3 ik_mat3_from_euler(ik_vec3 e, ik_euler_order order);
// Euler angles of a rotation matrix: e.x, e.z in (-pi, pi], e.y in [-pi/2, pi/2]. In gimbal
// lock (|e.y| = pi/2) e.z = 0 and e.x carries the whole remaining rotation.
IKDEF ik_vec3 ik_mat3_to_euler(ik_mat3 m, ik_euler_order order);
// The orientation a fraction s of the way from r0 to rg about the single fixed axis n of
// rg * r0^T = Rot(n, theta): R(s) = Rot(n, s * theta) * r0, theta in [0, pi]. R(0) = r0,
// R(1) = rg. Robust at theta = 0 and near pi. Same path as ik_quat_slerp().
IKDEF ik_mat3 ik_mat3_interpolate_axis(ik_mat3 r0, ik_mat3 rg, ik_real s);

// The identity transform.
IKDEF ik_xform ik_xform_identity(void);
// A pure translation.
IKDEF ik_xform ik_xform_translation(ik_vec3 pos);
// The transform {rot, pos}; rot is normalized here.
IKDEF ik_xform ik_xform_make(ik_quat rot, ik_vec3 pos);
// a * b: applies b, then a.
IKDEF ik_xform ik_xform_mul(ik_xform a, ik_xform b);
// The inverse transform.
IKDEF ik_xform ik_xform_inverse(ik_xform t);
// t applied to point p: t.rot * p + t.pos.
IKDEF ik_vec3 ik_xform_apply(ik_xform t, ik_vec3 p);
// t's rotation applied to direction d (no translation).
IKDEF ik_vec3 ik_xform_apply_direction(ik_xform t, ik_vec3 d);

// ---- ball-joint limits -------------------------------------------------------------------------
// A ball joint's limits, relative to its rest frame (docs/limits.md): a rotation r = swing *
// twist (as ik_quat_swing_twist() splits it about the twist axis, the bone) is allowed when its
// twist angle is within [twist_lo, twist_hi] and its swing within an elliptical cone about the
// twist axis, whose half-angles are swing_x toward the limit's x axis and swing_y toward its y
// axis; the ellipse is drawn in tan(angle / 4) coordinates, smooth up to swings of pi.
typedef struct ik_ball_limit {
    ik_mat3 axes;     // columns: the limit's x, y, z axes in the rest frame (z: the twist axis)
    ik_real cone[2];  // tan(swing_y / 4), tan(swing_x / 4): semi-axes for swings about x, y
    ik_real twist[2]; // twist_lo, twist_hi, radians
    ik_real twist_half[4]; // cos, sin of twist_lo / 2, then of twist_hi / 2
} ik_ball_limit;

// The limit above, in *out (built here: its fields are derived values). twist_axis: nonzero;
// x_axis: the cone's x direction, made perpendicular to twist_axis here (parallel or zero: any
// perpendicular). swing_x, swing_y in [0, pi] (pi: no limit that way); -pi <= twist_lo <=
// twist_hi <= pi (-pi, pi: no twist limit). IK_ERR_BAD_ARG otherwise or for non-finite input
// (out untouched); IK_ERR_NULL_ARG for out NULL.
IKDEF ik_result ik_ball_limit_make(ik_vec3 twist_axis, ik_vec3 x_axis, ik_real swing_x,
                                   ik_real swing_y, ik_real twist_lo, ik_real twist_hi,
                                   ik_ball_limit *out);
// Whether rotation r (normalized here; a zero or non-finite r is the identity, as
// ik_quat_normalize() makes it) is within the limit, to rounding (32 epsilon, over cos(swing / 2)
// near a half-turn swing); false for limit NULL.
IKDEF bool ik_ball_limit_contains(const ik_ball_limit *limit, ik_quat r);
// The allowed rotation nearest r (normalized here) in the limit's coordinates: the swing to the
// nearest point of the cone's ellipse in tan(angle / 4) coordinates, the twist to the nearer end
// of its range. r itself (to the bit) when within; the result is within, on r's side of w = 0
// (r and -r are the same rotation). Continuous except where two answers are equally near: a
// twist opposite the middle of its range, a swing of exactly pi outside the cone (docs/limits.md,
// "Projection"). limit NULL: r.
IKDEF ik_quat ik_ball_limit_project(const ik_ball_limit *limit, ik_quat r);

// ---- chain -------------------------------------------------------------------------------------

// Joint types. The number of joint-state values each takes is in parentheses.
typedef enum ik_joint_type {
    IK_JOINT_FIXED = 0,     // (0) no motion: a rigid offset
    IK_JOINT_REVOLUTE = 1,  // (1) rotation by q about axis, radians
    IK_JOINT_PRISMATIC = 2, // (1) translation by q along axis, model units
    IK_JOINT_BALL = 3       // (3) rotation exp(v), v an exponential map (ik_quat_from_expmap)
} ik_joint_type;

// One joint: a fixed offset from the parent frame, then the joint's motion.
typedef struct ik_joint {
    ik_joint_type type;
    ik_xform origin; // parent frame -> joint frame at q = 0 (URDF <origin>); rot must be unit
    ik_vec3 axis;    // unit axis in the joint frame (revolute, prismatic); ignored otherwise
    ik_real lo, hi;  // limits of q (revolute, prismatic), lo <= hi; +-IK_INFINITY for none
                     // (ball: none, lo = -IK_INFINITY, hi = IK_INFINITY; fixed: ignored)
    ik_real weight;  // >= 0; how freely solvers move this joint (1 = normal, 0 = frozen)
    const ik_ball_limit *limit; // ball: NULL (free) or its swing and twist limits (not owned,
                                // made by ik_ball_limit_make()), honoured by every solver
                                // (docs/limits.md, "In the solvers"); others: NULL
} ik_joint;

// A serial chain: joints from root to tip, and the effector's offset from the last joint frame.
// The chain does not own the joints; it only points at them.
typedef struct ik_chain {
    const ik_joint *joints; // [joint_count]
    int joint_count;        // 1 .. IK_MAX_JOINTS
    ik_xform tip;           // last joint frame -> effector (tool) frame
} ik_chain;

// Number of joint-state values a joint of this type takes: 0, 1 or 3 (0 for an unknown type).
IKDEF int ik_joint_type_dof(ik_joint_type type);
// A fixed joint at origin.
IKDEF ik_joint ik_joint_fixed(ik_xform origin);
// A revolute joint at origin about axis (normalized here), unlimited, weight 1.
IKDEF ik_joint ik_joint_revolute(ik_xform origin, ik_vec3 axis);
// A prismatic joint at origin along axis (normalized here), unlimited, weight 1.
IKDEF ik_joint ik_joint_prismatic(ik_xform origin, ik_vec3 axis);
// A ball joint at origin, without limits (ball joints have none), weight 1.
IKDEF ik_joint ik_joint_ball(ik_xform origin);
// The chain {joints, joint_count, tip}. Checks nothing: see ik_chain_validate().
IKDEF ik_chain ik_chain_make(const ik_joint *joints, int joint_count, ik_xform tip);

// Checks a chain: IK_ERR_NULL_ARG (chain or joints NULL), IK_ERR_BAD_ARG (count outside
// 1..IK_MAX_JOINTS, unknown type, NaN/Inf or |x| > IK_MAX_MAGNITUDE in an origin or the tip,
// origin rotation or axis not unit to 1e-4, NaN limit, lo > hi, a ball joint's lo or hi other
// than -IK_INFINITY, IK_INFINITY (ball limits are refused, not ignored), weight < 0 or not
// finite).
IKDEF ik_result ik_chain_validate(const ik_chain *chain);
// Length of the chain's joint-state vector, or -1 if ik_chain_validate() fails.
IKDEF int ik_chain_dof(const ik_chain *chain);
// Index of joint i's first value in the joint-state vector, or -1 if the chain is invalid or i
// is outside 0..joint_count-1.
IKDEF int ik_chain_state_index(const ik_chain *chain, int joint);

// Forward kinematics, O(n). Writes the effector pose to *out_effector and, if out_frames is not
// NULL, joint i's frame F_i (after its motion) to out_frames[i], all in the chain's root frame.
// Either output may be NULL. q: [ik_chain_dof()] finite values, |q| <= IK_MAX_MAGNITUDE (a
// ball joint's exponential map may have any length). Limits are not applied.
// Errors: IK_ERR_NULL_ARG (chain, q), IK_ERR_BAD_ARG (see ik_chain_validate(), bad q);
// outputs untouched on error.
IKDEF ik_result ik_chain_fk(const ik_chain *chain, const ik_real *q, ik_xform *out_frames,
                            ik_xform *out_effector);

// Geometric Jacobian at q, O(n). rows = 3: d(effector position)/dq; rows = 6: the position rows,
// then the effector's angular velocity in the root frame (rows 3..5). out_jacobian is row-major,
// rows x ik_chain_dof(), out_jacobian[r * dof + c]. Ball joints' columns are exact derivatives
// with respect to their exponential-map values. out_effector (may be NULL) gets the FK pose.
// Errors: IK_ERR_NULL_ARG (chain, q, out_jacobian), IK_ERR_BAD_ARG (rows not 3 or 6, as for
// ik_chain_fk()); outputs untouched on error.
IKDEF ik_result ik_chain_jacobian(const ik_chain *chain, const ik_real *q, int rows,
                                  ik_real *out_jacobian, ik_xform *out_effector);

// A joint as URDF describes it: <origin xyz rpy> (rpy: R = Rz(y) Ry(p) Rx(r)) and <axis xyz>.
// type: IK_JOINT_REVOLUTE (also URDF "continuous"), IK_JOINT_PRISMATIC or IK_JOINT_FIXED; lo, hi
// are <limit lower upper> (pass -IK_INFINITY, IK_INFINITY for none). Errors: IK_ERR_NULL_ARG,
// IK_ERR_BAD_ARG (non-finite or huge input, zero axis on a moving joint, lo > hi, ball type);
// *out_joint untouched on error.
IKDEF ik_result ik_joint_from_urdf(ik_joint_type type, ik_vec3 xyz, ik_vec3 rpy, ik_vec3 axis,
                                   ik_real lo, ik_real hi, ik_joint *out_joint);

// One row of a Denavit-Hartenberg table. The joint variable q adds to theta (revolute) or d
// (prismatic): the row's theta and d are the values at q = 0.
typedef struct ik_dh_row {
    ik_joint_type type; // IK_JOINT_REVOLUTE or IK_JOINT_PRISMATIC (IK_JOINT_FIXED: no variable)
    ik_real a;          // link length (modified DH: a_{i-1})
    ik_real alpha;      // link twist, radians (modified DH: alpha_{i-1})
    ik_real d;          // link offset
    ik_real theta;      // joint angle, radians
    ik_real lo, hi;     // limits of q
} ik_dh_row;

// Which Denavit-Hartenberg convention a table uses.
typedef enum ik_dh_convention {
    IK_DH_CLASSIC = 0, // T_i = Rz(theta) Tz(d) Tx(a) Rx(alpha)             (Denavit-Hartenberg)
    IK_DH_MODIFIED = 1 // T_i = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta) Tz(d) (Craig)
} ik_dh_convention;

// Joints (and the tip) of the chain a DH table describes: joint i moves about or along the z
// axis of DH frame i, and FK of the result equals the product of the table's transforms, with
// out_tip the transform from the last joint frame to the last DH frame. Errors: IK_ERR_NULL_ARG,
// IK_ERR_BAD_ARG (count outside 1..IK_MAX_JOINTS, bad convention, ball type, non-finite or huge
// values, lo > hi); outputs untouched on error.
IKDEF ik_result ik_joints_from_dh(const ik_dh_row *rows, int count, ik_dh_convention convention,
                                  ik_joint *out_joints, ik_xform *out_tip);

// ---- svd ---------------------------------------------------------------------------------------

// Thin singular value decomposition of the m x n row-major matrix a, by one-sided Jacobi:
// a = U diag(s) V^T with k = min(m, n), U m x k and V n x k row-major with orthonormal columns
// (completed to an orthonormal set where singular values are zero), s[k] >= 0 sorted
// descending. No scratch: the work happens in the outputs, which must not overlap a or each
// other. Accurate to sqrt(max(m, n)) epsilon of s_max: a singular value below that is 0.
// Errors: IK_ERR_NULL_ARG, IK_ERR_BAD_ARG (m or n < 1, m * n > IK_MAX_JOINTS * 64, a not
// finite or larger than IK_MAX_MAGNITUDE, overlapping arrays); outputs untouched on error.
IKDEF ik_result ik_svd(const ik_real *a, int m, int n, ik_real *out_u, ik_real *out_s,
                       ik_real *out_v);
// Bytes of scratch ik_svd_pinv() and ik_svd_damped_pinv() need for an m x n matrix (0 if m or n
// is out of range). Any alignment will do.
IKDEF size_t ik_svd_scratch_size(int m, int n);
// Moore-Penrose pseudo-inverse (n x m, row-major) of the m x n matrix a: singular values at or
// below rcond * s_max count as zero (rcond in [0, 1); 0 keeps every non-zero one). a and out
// must not overlap scratch. Errors: as ik_svd(), IK_ERR_BAD_ARG for rcond or an overlap,
// IK_ERR_SCRATCH_TOO_SMALL; out untouched.
IKDEF ik_result ik_svd_pinv(const ik_real *a, int m, int n, ik_real rcond, ik_real *out_pinv,
                            void *scratch, size_t scratch_size);
// Damped pseudo-inverse V diag(s / (s^2 + damping^2)) U^T (n x m) of a: the damped least
// squares solution operator (Wampler 1986). damping >= 0; 0 gives the plain pseudo-inverse of
// the non-zero singular values. Errors: as ik_svd_pinv(); out untouched.
IKDEF ik_result ik_svd_damped_pinv(const ik_real *a, int m, int n, ik_real damping,
                                   ik_real *out_pinv, void *scratch, size_t scratch_size);

// ---- solvers: common ---------------------------------------------------------------------------

// What a chain solver should reach, in the chain's root (model) frame.
typedef struct ik_target {
    ik_vec3 pos;       // effector position
    ik_quat rot;       // effector orientation, if use_rotation: normalized for use (any finite
                       // size whose largest component is a normal number, not 0 or subnormal)
    bool use_rotation; // false: position only
} ik_target;

// A position-only target at pos.
IKDEF ik_target ik_target_position(ik_vec3 pos);
// A full-pose target: the effector frame at pose.
IKDEF ik_target ik_target_pose(ik_xform pose);

// ---- solvers: Jacobian -------------------------------------------------------------------------

// How ik_jacobian_solve() turns the Jacobian and the error into a step.
typedef enum ik_jacobian_method {
    IK_JACOBIAN_DLS = 0,      // damped least squares (Wampler 1986; Nakamura and Hanafusa 1986)
    IK_JACOBIAN_PINV = 1,     // SVD pseudo-inverse (Gauss-Newton), singular values below
                              // rcond * s_max dropped; undamped, so it crawls near singularities
                              // when the target is out of reach (prefer DLS or SDLS then)
    IK_JACOBIAN_SDLS = 2,     // selectively damped least squares (Buss and Kim 2005)
    IK_JACOBIAN_TRANSPOSE = 3 // Jacobian transpose with the step length that minimizes the
                              // linearized error (Wolovich and Elliott 1984; Buss 2004)
} ik_jacobian_method;

// How ball joints are parameterized while solving (q always holds exponential maps).
typedef enum ik_ball_param {
    IK_BALL_EXPMAP = 0, // exponential map, stepped on the rotation manifold (Grassia 1998)
    IK_BALL_EULER = 1   // yaw-pitch-roll (IK_EULER_YXZ) angles stepped additively: the
                        // reference's baseline, for comparison
} ik_ball_param;

// Options for ik_jacobian_solve(). Start from ik_default_jacobian_opts(), then change fields.
typedef struct ik_jacobian_opts {
    ik_jacobian_method method;  // default IK_JACOBIAN_DLS
    ik_ball_param ball_param;   // default IK_BALL_EXPMAP
    int max_iterations;         // >= 1; default 100
    ik_real tolerance;          // converged when |effector - target| <= tolerance (model units)
    ik_real rotation_tolerance; // and, with use_rotation, the angle <= this (radians); >= 0;
                                // defaults 1e-9 and 1e-9 (1e-5 with IK_USE_FLOAT)
    ik_real orientation_weight; // model units per radian: weighs orientation against position
                                // in the task; >= 0; 0 (default): the chain's length divided by
                                // its joint count (the mean distance between joints)
    ik_real damping;            // DLS damping lambda (model units); >= 0; default 0, meaning
                                // adaptive: lambda^2 = (1 - (s_h / eps)^2) min(lambda_max^2,
                                // |e|^2) when s_h < eps, else 0, with eps = 0.05 and
                                // lambda_max = 0.1 times the chain's length and
                                // s_h^2 = 1 / sum_i 1 / s_i^2 over the weighted Jacobian's k
                                // singular values (k = 3 or 6 task rows, fewer with fewer DOF;
                                // s_min^2 / k <= s_h^2 <= s_min^2: it can start with s_min up
                                // to sqrt(k) eps): damped only near singularities, and less as
                                // the error shrinks
    ik_real rcond;              // IK_JACOBIAN_PINV: relative cutoff, [0, 1); default 1e-9
    ik_real max_step;           // the error is clamped to this length per iteration (model
                                // units; the rotation part too, in weighted units) before the
                                // step: stable dragging; > 0; default: infinity (no clamping)
    ik_real max_joint_step;     // largest change of one joint value per iteration (radians or
                                // model units); > 0; default pi / 4 (Buss and Kim's gamma_max)
    const ik_real *rest;        // [dof] rest pose pulled toward in the null space, or NULL
    ik_real rest_gain;          // gain of that pull per iteration, [0, 1]; default 0.1
    ik_real min_improvement;    // stalled after 5 iterations in a row that lower the error by
                                // less than this fraction of the best; [0, 1); default 1e-12
    int _valid;                 // set by ik_default_jacobian_opts(); do not touch
} ik_jacobian_opts;

// Default Jacobian options. Never fails.
IKDEF ik_jacobian_opts ik_default_jacobian_opts(void);
// Bytes of scratch ik_jacobian_solve() needs for this chain (0 if the chain is invalid).
IKDEF size_t ik_jacobian_scratch_size(const ik_chain *chain);

// Jacobian IK. Each iteration takes the 3 x dof (position target) or 6 x dof (pose) Jacobian and
// the error, weighs the rows (orientation_weight) and the columns (joint weights: 0 freezes a
// joint), and steps by the chosen method. Ball joints step on the rotation manifold in
// exponential-map coordinates (the step is composed with the current rotation, and |v| <= pi is
// kept by reparameterization), or additively in Euler angles (IK_BALL_EULER). Limits: a step
// that would push a revolute or prismatic joint past a limit pins it there and the step is
// recomputed for the others (an active set), so limits hold in every state. An optional pull
// toward opts->rest acts in the null space of the task (not with IK_JACOBIAN_TRANSPOSE, which
// has none). q [ik_chain_dof()] is in/out.
// Status: converged; out of iterations; stalled (5 iterations without improvement: limits or a
// local minimum); unreachable (not converged with the target farther than the chain reaches,
// the chain stretched toward it). info may be NULL.
// Errors: IK_ERR_NULL_ARG (chain, target, q, scratch), IK_ERR_BAD_ARG (chain, q or target, as for
// ik_ccd_solve(); rest not finite; q, rest, info, *chain or its joints overlapping scratch's
// scratch_size bytes), IK_ERR_BAD_OPTS, IK_ERR_SCRATCH_TOO_SMALL, IK_ERR_NUMERIC; q untouched
// on error. No allocation; O(n) per iteration.
IKDEF ik_result ik_jacobian_solve(const ik_chain *chain, const ik_target *target,
                                  const ik_jacobian_opts *opts, ik_real *q, void *scratch,
                                  size_t scratch_size, ik_solve_info *info);

// ---- solvers: CCD ------------------------------------------------------------------------------

// Options for ik_ccd_solve(). Start from ik_default_ccd_opts(), then change fields.
typedef struct ik_ccd_opts {
    int max_sweeps;             // sweeps over the chain, tip to root; >= 1; default 100
    ik_real tolerance;          // converged when |effector - target| <= tolerance (model units)
                                // and, with use_rotation, the angle <= rotation_tolerance;
                                // >= 0; default 1e-6 (1e-5 with IK_USE_FLOAT)
    ik_real rotation_tolerance; // radians, >= 0; default 1e-6 (1e-5 with IK_USE_FLOAT)
    ik_real position_weight;    // w_p; < 0 (default -1): Welman's alpha (1 + rho) at each
                                // joint, alpha = (moving joints / length_scale)^2, rho =
                                // min(|Pid|, |Pic|) / max(|Pid|, |Pic|); >= 0: that constant
    ik_real orientation_weight; // w_o, >= 0; default 1 (ignored without use_rotation)
    ik_real length_scale;       // W in alpha; > 0; 0 (default): the chain's length
    ik_real max_angle;          // largest rotation of one joint in one sweep, radians, (0, pi];
                                // default pi (no limit); smaller is smoother for dragging
    ik_real min_improvement;    // stop (stalled) after 3 sweeps in a row that lower the error
                                // w_p |dp|^2 + w_o sum_j |du_j|^2 by less than this fraction of
                                // the best so far; [0, 1); default 1e-12
    int _valid;                 // set by ik_default_ccd_opts(); do not touch
} ik_ccd_opts;

// Default CCD options. Never fails.
IKDEF ik_ccd_opts ik_default_ccd_opts(void);
// Bytes of scratch ik_ccd_solve() needs for this chain (0 if the chain is invalid).
IKDEF size_t ik_ccd_scratch_size(const ik_chain *chain);

// Cyclic coordinate descent with Welman's position + orientation objective (Welman 1993, after
// Wang and Chen 1991). Each sweep visits the joints from the tip to the root and moves one joint
// at a time, updating the effector at once: a revolute joint by the angle phi that maximizes
// g(phi) = k1 (1 - cos phi) + k2 cos phi + k3 sin phi (the global maximum, atan2(k3, k2 - k1)),
// a prismatic joint by (Pd - Pc) . axis, a ball joint by the rotation that best aligns the
// weighted effector vectors with the target's (exact, Horn's quaternion method; the shortest
// arc for position only). Each move is scaled by the joint's weight (clamped to [0, 1]: 0
// freezes it), limited to opts->max_angle, and clamped to the joint's limits. A revolute joint
// whose axis passes through the effector or the target (to rounding) has no position term: it
// stays where it is for a position target, rather than turning by rounding noise.
// q [ik_chain_dof()] is in/out: the start on entry, the result on exit; a start outside the
// limits is clamped into them first. A free revolute joint (no limits, weight >= 1, max_angle =
// pi) is carried as (cos q, sin q) and comes back within pi of its start. Stops when converged,
// when sweeps no longer improve (IK_STATUS_STALLED), or after max_sweeps
// (IK_STATUS_MAX_ITERATIONS); not converged with the target farther from the first joint than the
// chain reaches: IK_STATUS_UNREACHABLE (the chain straightened toward it). info may be NULL.
// Errors: IK_ERR_NULL_ARG (chain, target, q, scratch), IK_ERR_BAD_ARG (see ik_chain_fk(), a
// non-finite or huge target, a zero or subnormal target rotation with use_rotation; q, info,
// *chain or its joints overlapping scratch's scratch_size bytes), IK_ERR_BAD_OPTS,
// IK_ERR_SCRATCH_TOO_SMALL, IK_ERR_NUMERIC (a joint value would leave IK_MAX_MAGNITUDE: a
// prismatic joint chasing a target that far away); q untouched on error.
// The errors in info are those of ik_chain_fk() at the returned q. Cost O(n) per sweep (no sine,
// cosine or atan2 for free revolute joints), plus one sine, cosine and atan2 per revolute joint
// and one forward kinematics per solve; no allocation. With info NULL the forward kinematics is
// skipped where only info would read it (after the last sweep, or when the carried state is
// within the tolerance by more than its rounding and no prismatic joint is unlimited; not with
// IK_NO_FAST_PATHS): q is the same to the bit, and a one-sweep solve costs about a quarter
// less. Checks the chain and builds its constant frames on every call: a chain solved many
// times can be prepared once (ik_ccd_prepare()).
IKDEF ik_result ik_ccd_solve(const ik_chain *chain, const ik_target *target,
                             const ik_ccd_opts *opts, ik_real *q, void *scratch,
                             size_t scratch_size, ik_solve_info *info);

// A prepared chain: the chain checked, with the options and the kind of target (position or
// pose) it is prepared for, and its constant frames, built once by ik_ccd_prepare() in memory the
// caller owns (ik_ccd_prepared_size() bytes, any alignment) and read, never written, by
// ik_ccd_solve_prepared(): several threads may solve with one prepared chain at once, each with
// its own scratch. It refers to the chain's joints (not to the ik_chain, which it copies): keep
// them unchanged while it is used, and prepare again after changing them, the options or the
// kind of target. Prepare it in place (a byte copy elsewhere need not work).
// Bytes of memory ik_ccd_prepare() needs for this chain (0 if the chain is invalid).
IKDEF size_t ik_ccd_prepared_size(const ik_chain *chain);

// Checks chain and opts (NULL: the defaults) and prepares the chain in the prepared_size bytes at
// prepared for targets with a rotation (pose_targets) or without. Errors: IK_ERR_NULL_ARG (chain,
// prepared), IK_ERR_BAD_ARG (chain as for ik_ccd_solve(); *chain or its joints overlapping the
// prepared_size bytes), IK_ERR_BAD_OPTS, IK_ERR_SCRATCH_TOO_SMALL (prepared_size); prepared
// untouched on error. O(n), no allocation.
IKDEF ik_result ik_ccd_prepare(const ik_chain *chain, const ik_ccd_opts *opts, bool pose_targets,
                               void *prepared, size_t prepared_size);

// ik_ccd_solve() on a prepared chain with the options it was prepared with: the same q and info
// to the bit, without checking the chain and building its frames. scratch: at least
// ik_ccd_scratch_size(chain) bytes (less is enough: it need not hold the prepared chain).
// Errors: IK_ERR_NULL_ARG (prepared, target, q, scratch), IK_ERR_BAD_ARG (prepared not filled
// by ik_ccd_prepare(); q or target as for ik_ccd_solve(), or a target with a rotation for a
// chain prepared without, or the reverse; q, info, the prepared chain or the chain's joints
// overlapping scratch; q or info overlapping the prepared chain), IK_ERR_SCRATCH_TOO_SMALL,
// IK_ERR_NUMERIC; q untouched on error.
IKDEF ik_result ik_ccd_solve_prepared(const void *prepared, const ik_target *target, ik_real *q,
                                      void *scratch, size_t scratch_size, ik_solve_info *info);

// ---- solvers: analytic limb --------------------------------------------------------------------

// The limb's joint limits (docs/limb.md, "Limits"). The elbow angle is q[3], the angle about
// hinge_axis from the rest pose; the solver bends only positively from straight (t0 + [0, pi],
// t0 the straight angle: 0 for a straight rest pose), and uses the part of [elbow_lo, elbow_hi]
// within that branch, which must not be empty. The ball limits are relative to each joint's
// rest frame (q = 0), as ik_joint.limit.
typedef struct ik_limb_limits {
    ik_real elbow_lo, elbow_hi; // elbow angle range, radians, lo <= hi (finite)
    ik_ball_limit shoulder;     // the shoulder joint's cone and twist (ik_ball_limit_make())
    ik_ball_limit wrist;        // the wrist joint's (after the elbow)
} ik_limb_limits;

// A shoulder (3 DOF) - elbow (1 DOF hinge) - wrist (3 DOF) limb, described in its rest pose (all
// joint values zero). Any bone axis and any hinge axis work; the rest pose need not be straight.
typedef struct ik_limb {
    ik_xform base;        // model frame <- shoulder joint frame: shoulder position, parent rotation
    ik_vec3 upper_dir;    // direction shoulder -> elbow, shoulder frame (normalized for use)
    ik_real upper_length; // >= 0
    ik_vec3 lower_dir;    // direction elbow -> wrist, elbow frame (= shoulder frame at rest)
    ik_real lower_length; // >= 0
    ik_vec3 hinge_axis;   // elbow axis, elbow frame; the elbow bends by positive angles
    ik_vec3 swivel_ref;   // model-frame direction of zero swivel: the elbow side at swivel 0
    const ik_limb_limits *limits; // NULL: no limits; else not owned (kept alive by the
                                  // caller while the limb or its prepared copy is used)
} ik_limb;

// What the limb should reach. Model frame.
typedef struct ik_limb_target {
    ik_vec3 pos;       // wrist position
    ik_quat rot;       // wrist orientation (unit), used if use_rotation
    bool use_rotation; // false: position only, the wrist keeps its joint values (two-bone IK)
    bool use_swivel;   // false: bend toward pole; true: take the swivel angle below
    ik_vec3 pole;      // pole target: the elbow lies in the plane through it, on its side
    ik_real swivel;    // radians about the shoulder -> wrist line, from swivel_ref's side
} ik_limb_target;

// Options for ik_limb_solve(). Start from ik_default_limb_opts(), then change fields.
typedef struct ik_limb_opts {
    ik_real softness;  // soft reach: the last `softness` model units of reach are approached
                       // asymptotically instead of snapping straight; >= 0; default 0 (off)
    ik_real pole_band; // a pole nearer the shoulder-wrist line than pole_band * (upper_length +
                       // lower_length) (with use_swivel: swivel_ref within this sine of the
                       // line) blends toward the elbow's current side; (0, 1); default 0.01
    int _valid;        // set by ik_default_limb_opts(); do not touch
} ik_limb_opts;

// Joint values as rotations, for callers that drive their own skeleton (with q NULL,
// ik_limb_solve() also reads the current pose from here).
typedef struct ik_limb_pose {
    ik_quat shoulder; // shoulder joint rotation (after base.rot)
    ik_real elbow;    // elbow angle about hinge_axis, radians
    ik_quat wrist;    // wrist joint rotation (after the elbow)
} ik_limb_pose;

// Default limb options. Never fails.
IKDEF ik_limb_opts ik_default_limb_opts(void);

// The matching chain: a ball joint at base, a revolute joint (hinge_axis) at
// upper_length * upper_dir, a ball joint at lower_length * lower_dir; the effector is the wrist
// frame (tip = identity). Its joint-state vector is the 7 values ik_limb_solve() writes:
// shoulder exponential map (3), elbow angle (1), wrist exponential map (3).
// Errors: IK_ERR_NULL_ARG, IK_ERR_BAD_ARG (see ik_limb_solve()); outputs untouched on error.
IKDEF ik_result ik_limb_chain(const ik_limb *limb, ik_joint out_joints[3], ik_xform *out_tip);

// Analytic limb IK: puts the wrist at target->pos, the elbow in the half-plane through
// target->pole (or at target->swivel from swivel_ref), and, with use_rotation, the wrist frame at
// target->rot. The current pose keeps the answer continuous (exponential maps and elbow angle
// are the representatives nearest to it; the elbow side in degenerate cases comes from it):
//   q [7] in/out: the current pose on entry, the solution on exit (shoulder exponential map,
//     elbow angle, wrist exponential map, as ik_limb_chain() numbers them); out_pose (may be
//     NULL) gets the same answer as rotations.
//   q NULL: out_pose is in/out instead: the current pose on entry (finite, non-zero rotations),
//     the solution on exit. No exponential maps are made: the fastest way to drive a skeleton.
// Reach: beyond full extension the limb straightens toward the target; closer than the elbow can
// fold, it folds as far as it goes; either way info->status = IK_STATUS_UNREACHABLE (so too in
// the soft-reach zone), else IK_STATUS_CONVERGED. Degenerate: pole on the shoulder-wrist line,
// the elbow keeps its current side; target at the shoulder, the limb keeps its current
// direction; a zero-length bone keeps the current elbow angle.
// Limits (limb->limits, docs/limb.md, "Limits"): the answer is always within them. A target
// beyond the elbow range's band of distances is approached along the shoulder -> target line as
// far as the range allows; a swivel that puts the shoulder or the wrist (with use_rotation)
// outside its cone or twist moves to the nearest swivel where both are within (the target still
// met: CONVERGED); where none is, the least violating swivel with both rotations projected into
// their limits. Either way the target missed because of the limits: IK_STATUS_LIMITED (beyond
// the limb's plain reach: UNREACHABLE). Position only, a current wrist outside its limit is
// projected into it.
// Non-unit directions, axis and rotations are normalized. Errors: IK_ERR_NULL_ARG (limb,
// target, or both q and out_pose), IK_ERR_BAD_ARG (NaN/Inf or huge input, zero or subnormal
// direction, axis or rotation, negative length, hinge along a bone, limits with NaN/Inf, an
// elbow range with lo > hi or outside the bending branch, a ball limit not made by
// ik_ball_limit_make()), IK_ERR_BAD_OPTS; q and
// out_pose untouched on error. Checks and prepares the limb on every call (see ik_limb_prepare()).
IKDEF ik_result ik_limb_solve(const ik_limb *limb, const ik_limb_target *target,
                              const ik_limb_opts *opts, ik_real *q, ik_limb_pose *out_pose,
                              ik_solve_info *info);

// A limb checked and reduced to what the solver needs (unit axes, the hinge geometry of
// docs/limb.md). Fill it with ik_limb_prepare(); prepare again whenever the ik_limb or its
// limits change (it points at the limb's ik_limb_limits, and holds the elbow range's constants).
// Read-only: the fields are derived from each other.
typedef struct ik_limb_prepared {
    ik_xform base;                            // limb->base, rotation normalized
    ik_vec3 upper_dir, lower_dir, hinge_axis; // unit
    ik_vec3 swivel_ref;                       // limb->swivel_ref
    ik_real length_unit; // upper + lower length (1 if both are 0): the lengths below are in
                         // this unit, so that their squares neither underflow nor overflow
    ik_real upper_length, lower_length;
    ik_vec3 elbow;                             // upper_length * upper_dir
    ik_vec3 lower_along, lower_cos, lower_sin; // the lower bone at elbow angle t:
                                               // lower_along + lower_cos cos t + lower_sin sin t
    ik_real reach2_min, reach2_max;            // squared reach range
    ik_real a, rg;                             // d1 . R_h(t) d2 = a + rg cos(t - t0)
    ik_real t0, cos_t0, sin_t0;                // t0, the straight elbow angle, in (-pi, pi]
    ik_real cos_h0, sin_h0;                    // t0 / 2 (cos_h0 >= 0)
    ik_real reach2_mid, reach2_half; // squared reach = reach2_mid + reach2_half cos(t - t0)
    ik_real reach2_half_inv;         // 1 / reach2_half (0 if that overflows)
    ik_real unit2_inv;               // 1 / length_unit^2 (0 if |t|^2 times it could overflow)
    const ik_limb_limits *limits;    // limb->limits (NULL: none; the fields below then unset)
    ik_real elbow_lo, elbow_hi;      // the elbow range within t0 + [0, pi]
    ik_real elbow_reach2_min, elbow_reach2_max; // the squared reach at elbow_hi, elbow_lo
    ik_real elbow_half[4];                      // cos, sin of elbow_lo / 2, of elbow_hi / 2
    int _valid;                                 // set by ik_limb_prepare(); do not touch
} ik_limb_prepared;

// Checks limb and fills *out for ik_limb_solve_prepared(). Errors as ik_limb_solve() (limb
// part), *out untouched on error.
IKDEF ik_result ik_limb_prepare(const ik_limb *limb, ik_limb_prepared *out);

// ik_limb_solve() for a prepared limb: the same answer, without checking and preparing the limb
// on every call. Errors: IK_ERR_NULL_ARG, IK_ERR_BAD_ARG (target or pose, or a limb not filled
// by ik_limb_prepare()), IK_ERR_BAD_OPTS; q and out_pose untouched on error.
IKDEF ik_result ik_limb_solve_prepared(const ik_limb_prepared *limb, const ik_limb_target *target,
                                       const ik_limb_opts *opts, ik_real *q, ik_limb_pose *out_pose,
                                       ik_solve_info *info);

// Swivel angle of pose q [7]: the elbow's angle about the shoulder -> wrist line, measured from
// swivel_ref's side (right-handed about the line), in (-pi, pi]. ik_limb_solve() with
// use_swivel and this angle reproduces the pose's elbow position (swivel_ref within pole_band
// of the line: solved from that pose). A straight limb, or swivel_ref along the line, gives 0.
// Errors: IK_ERR_NULL_ARG, IK_ERR_BAD_ARG; *out_swivel untouched.
IKDEF ik_result ik_limb_swivel(const ik_limb *limb, const ik_real *q, ik_real *out_swivel);

// Which limb of a human ik_limb_humanoid() makes.
typedef enum ik_humanoid_limb {
    IK_HUMANOID_LEFT_ARM,
    IK_HUMANOID_RIGHT_ARM,
    IK_HUMANOID_LEFT_LEG,
    IK_HUMANOID_RIGHT_LEG
} ik_humanoid_limb;

// A human arm or leg with anatomical limits (docs/limits.md, "A humanoid arm and leg"). Rest
// pose: y up, the character facing +z, T-pose: the left arm along +x, the right along -x, the
// legs along -y; the shoulder (hip) at base = identity (set out_limb->base to place it). The
// elbow flexes the forearm toward +z (the front), the knee the shank toward -z (the back);
// swivel_ref: the elbow down (-y), the knee forward (+z). Limits: elbow 0..145 degrees, knee
// 0..150, shoulder, hip, wrist and ankle cones and twists from clinical ranges of motion, the
// right limbs the left's mirror images. out_limb->limits = out_limits: keep *out_limits alive
// while the limb is used. Errors: IK_ERR_NULL_ARG, IK_ERR_BAD_ARG (which unknown, a length
// negative, NaN/Inf or huge); outputs untouched on error.
IKDEF ik_result ik_limb_humanoid(ik_humanoid_limb which, ik_real upper_length, ik_real lower_length,
                                 ik_limb *out_limb, ik_limb_limits *out_limits);

// ---- solvers: robot arm ------------------------------------------------------------------------

// Called by ik_arm_solve() before each restart: return true to stop (a time budget kept with
// the caller's own clock, a cancel flag, ...). user is ik_arm_opts.stop_user.
typedef bool (*ik_arm_stop_fn)(void *user);

// Options for ik_arm_solve(). Start from ik_default_arm_opts(), then change fields.
typedef struct ik_arm_opts {
    ik_jacobian_opts jacobian;      // each attempt's solver options, tolerances included;
                                    // default ik_default_jacobian_opts() with max_iterations 12,
                                    // max_joint_step 2 and tolerance = rotation_tolerance = 1e-6
                                    // (1e-5 float)
    int max_attempts;               // >= 1: the first from q, the others from random states;
                                    // default 100
    int probe_iterations;           // a restart still farther than probe_error after this many
    ik_real probe_error;            // iterations is abandoned (0: never); probe_error is a
                                    // fraction of the chain's reach (position error plus rotation
                                    // error times the mean joint distance); defaults 6 and 0.1
    unsigned long long random_seed; // seed of the restarts' random states (any value); default 1
    ik_arm_stop_fn stop;            // asked before each restart; NULL (default): never stop early
    void *stop_user;                // passed to stop
    int _valid;                     // set by ik_default_arm_opts(); do not touch
} ik_arm_opts;

// Default arm options. Never fails.
IKDEF ik_arm_opts ik_default_arm_opts(void);
// Bytes of scratch ik_arm_solve() needs for this chain (0 if the chain is invalid).
IKDEF size_t ik_arm_scratch_size(const ik_chain *chain);

// Pose (or position) IK for serial robot arms: the combination that solves random reachable
// targets most reliably. Attempt 1 iterates damped least squares (limits by an active set) from
// q, or, for an arm with a closed form, from the closed-form answer nearest q: seven revolute
// joints whose first three axes meet in one point and last three in another (a spherical
// shoulder and wrist, as the KUKA iiwa; to 64 epsilon of the reach), a pose target, no rest
// pose and no joint of weight 0 (the answer within every limit, the elbow's swivel searched
// outward from q's in steps of a 32nd of a turn; none found: q), or six revolute joints that
// ik_chain_closed_form() solves, with a pose target and no rest pose (the closed-form answer
// within every limit nearest q; none: q). A planar chain (every joint
// a hinge about +-z of the root frame or fixed, no origin rotated) with a position target in
// its plane takes, at every iteration where one fits, an exact step of two joints instead of a
// DLS step: the first free joint b and a later free joint k, with the parts b..k and k..tip
// held rigid, by the law of cosines (of the k whose bend fits the target's distance, the one
// that bends least, on its side first; both within their limits, wrapped by whole turns).
// From a start near an answer that is one iteration. While none has converged,
// the next attempt starts from a state drawn uniformly within the joint limits (a revolute
// joint without limits: a 2 pi range, centred on 0 or from its finite limit; prismatic: the
// chain's reach around the start; ball joints: a uniformly random rotation) by a splitmix64
// generator seeded with opts->random_seed: the same inputs give the same answer. A restart
// still farther than probe_error (a fraction of the reach) after probe_iterations is abandoned
// early. Stops at the first attempt that converges
// (IK_STATUS_CONVERGED), after max_attempts, or when opts->stop returns true (asked before each
// restart, so a time budget overshoots by at most one attempt). Not converged: q gets the
// attempt that came closest (position error plus rotation error times the mean joint distance)
// with its status; a target beyond reach stops after the first attempt with
// IK_STATUS_UNREACHABLE (no restart could converge). Every joint stays within its limits; in
// the DLS attempts (below) a revolute joint whose limits span a whole turn or more (+-pi,
// +-2 pi) is not stopped at one but moved by whole turns back into its range (the same
// rotation).
// The attempts are ik_jacobian_solve()'s DLS iteration with Levenberg-Marquardt damping
// lambda^2 = |e|^2 / 20 + 1e-9 reach^2 (jacobian.damping^2 if set): the default and any DLS
// options without a rest pose run it without an SVD and without per-attempt setup; other
// methods, a rest pose or Euler balls call ik_jacobian_solve() for each attempt.
// info (may be NULL): status, iterations summed over the attempts, the answer's errors.
// q [ik_chain_dof()] is in/out. ik.h reads no clock: time budgets are the caller's (stop).
// Errors: as ik_jacobian_solve() (IK_ERR_BAD_OPTS also for max_attempts < 1, probe_iterations
// < 0, probe_error negative or not finite), checked before the first attempt; q untouched on
// error. No allocation; scratch from the caller (ik_arm_scratch_size()).
IKDEF ik_result ik_arm_solve(const ik_chain *chain, const ik_target *target,
                             const ik_arm_opts *opts, ik_real *q, void *scratch,
                             size_t scratch_size, ik_solve_info *info);

// ---- closed forms: every solution of a 6R arm (docs/closed-forms.md) ---------------------------

// Which closed form a chain has (ik_chain_closed_form()).
typedef enum ik_closed_form_kind {
    IK_CLOSED_FORM_NONE = 0,            // none that ik.h solves: the reason says why
    IK_CLOSED_FORM_SPHERICAL_WRIST = 1, // axes 4, 5, 6 meet in a point, axes 2 and 3 parallel
                                        // (ABB, KUKA KR, Fanuc, Staubli, ...)
    IK_CLOSED_FORM_THREE_PARALLEL = 2,  // axes 2, 3, 4 parallel, axes 5 and 6 meet (the UR family)
    IK_CLOSED_FORM_SRS = 3 // seven joints: axes 1, 2, 3 meet (shoulder), axes 5, 6, 7 meet
                           // (wrist), joint 4 the elbow (KUKA iiwa, a human arm): the answers at
                           // a given swivel angle of the elbow
} ik_closed_form_kind;

// An arm's closed form, from ik_chain_closed_form(): the geometry at q = 0 in the chain's root
// frame. The caller owns it; it does not point into the chain. "The wrist" is its last three
// axes (4, 5, 6; SRS: 5, 6, 7), "the shoulder" an SRS arm's first three.
typedef struct ik_closed_form {
    ik_closed_form_kind kind;
    int joint_count;          // 6, or 7 (SRS)
    bool ortho_parallel;      // spherical wrist with axis 1 perpendicular to 2 and 3, and 4 to 5
                              // to 6: the ortho-parallel class (Brandstoetter 2014)
    bool ortho_wrist;         // the wrist's first and last axes perpendicular to its middle one
                              // (the wrist's exact path)
    bool ortho_shoulder;      // SRS: the same for the shoulder
    ik_vec3 axis[7];          // the revolute axes (unit)
    ik_vec3 point[7];         // a point on each
    ik_vec3 centre;           // spherical wrist, SRS: where the wrist's axes meet; three
                              // parallel: where axes 5 and 6 meet
    ik_vec3 across;           // a unit vector across the last axis (three parallel: axis 2)
    ik_real wrist_zero[2];    // ortho_wrist: cosine and sine of the angle from the wrist's first
                              // axis to its last about its middle one
    ik_vec3 shoulder;         // SRS: where axes 1, 2, 3 meet
    ik_vec3 elbow;            // SRS: the point of axis 4 nearest the shoulder (the swivel's)
    ik_vec3 shoulder_across;  // SRS: a unit vector across axis 3
    ik_real shoulder_zero[2]; // SRS, ortho_shoulder: as wrist_zero, for axes 1, 2, 3
    ik_xform home;            // the effector at q = 0
    ik_real lo[7], hi[7];     // the joints' limits
    ik_real reach;            // the offsets' lengths summed (the tolerances' scale)
} ik_closed_form;

// What ik_closed_form_solve() says of one solution (ik_closed_solution.flags).
typedef enum ik_closed_flag {
    IK_CLOSED_WITHIN_LIMITS = 1,     // every joint within its limits
    IK_CLOSED_SHOULDER_SINGULAR = 2, // joint 1's angle is free (taken from near_state, else 0)
                                     // or its two answers meet (SRS: axes 1 and 3 in line)
    IK_CLOSED_ELBOW_SINGULAR = 4,    // the elbow straight or folded: its two answers meet
    IK_CLOSED_WRIST_SINGULAR = 8     // the wrist's first and last axes in line: the first's
                                     // angle (spherical wrist, SRS) or joint 6's (three parallel)
                                     // taken from near_state, else 0, the other one turns the rest
} ik_closed_flag;

// One solution of ik_closed_form_solve().
typedef struct ik_closed_solution {
    ik_real q[7];     // the joint values (the chain's state vector; q[6] is 0 for 6R arms)
    int flags;        // ik_closed_flag bits
    int outside;      // bit j set: q[j] outside joint j's limits (0 when within)
    int branch;       // which closed-form answer, 0..7 (whole-turn equivalents share it); SRS:
                      // 4 e + 2 s + w for elbow, shoulder and wrist answers e, s, w (0 or 1), as
                      // ik_swivel_interval.branch
    ik_real distance; // sqrt(sum weights[j] (q[j] - near_state[j])^2)
} ik_closed_solution;

// What ik_closed_form_solve() found.
typedef struct ik_closed_info {
    ik_status status; // IK_STATUS_CONVERGED: a solution within the limits; IK_STATUS_LIMITED:
                      // solutions, none within the limits; IK_STATUS_UNREACHABLE: none
    int count;        // solutions written to out
    int total;        // solutions found, whole-turn equivalents counted (> count: out was full)
    int branches;     // distinct closed-form answers (8 at a generic pose)
} ik_closed_info;

// Whether a chain has a closed form, from its geometry (to 64 epsilon of its reach): six
// revolute joints (fixed joints anywhere) with a spherical wrist and axes 2 and 3 parallel, or
// with axes 2, 3, 4 parallel and axes 5 and 6 meeting; or seven with axes 1, 2, 3 meeting and
// axes 5, 6, 7 meeting (SRS). Fills *out (also with kind
// IK_CLOSED_FORM_NONE) and, if out_reason is not NULL, *out_reason with a sentence saying which
// it is or why there is none (a static string). An invalid chain or a NULL argument:
// IK_CLOSED_FORM_NONE with its reason (*out untouched if NULL).
IKDEF ik_closed_form_kind ik_chain_closed_form(const ik_chain *chain, ik_closed_form *out,
                                               const char **out_reason);

// Every solution of the arm for the effector pose target: up to 8 closed-form answers (each
// angle in -pi..pi), each listed with every whole-turn equivalent within its joint's limits (at
// most the 3 nearest near_state's value a joint; a joint without limits: the one nearest); an
// answer with a joint outside its limits is listed once (that joint nearest the limits' middle)
// with its outside bits. out gets the max_out best: within the limits first, then by weighted
// distance to near_state (may be NULL: the zero state; weights may be NULL: all 1, else
// [cf->joint_count] finite >= 0). Singular poses give their representatives with flags (never
// NaN); an unreachable target gives none (status IK_STATUS_UNREACHABLE). Every solution's FK
// equals the target to 1e-12 of the reach and radian (double; the elbow's, shoulder's and
// wrist's singular poses too), 2e-5 (float, SRS 3e-5; 1e-4 at singular poses)
// (docs/closed-forms.md, "Accuracy"); at exact singularities of some geometries, to 1e-8, or no
// answer (docs/robustness.md, "Known limits"). SRS arms: the answers
// at near_state's swivel (ik_closed_form_swivel(); 0 if near_state is NULL), as
// ik_closed_form_solve_swivel().
// Errors: IK_ERR_NULL_ARG (cf, out, info), IK_ERR_BAD_ARG (cf's kind IK_CLOSED_FORM_NONE or
// unknown or not matching its joint_count, a limit NaN or lo > hi in cf (which may be changed:
// e.g. narrower limits), max_out < 1, non-finite or huge target, target rotation not unit to
// 1e-4, bad near_state or weights); outputs untouched on error.
IKDEF ik_result ik_closed_form_solve(const ik_closed_form *cf, ik_xform target,
                                     const ik_real *near_state, const ik_real *weights,
                                     ik_closed_solution *out, int max_out, ik_closed_info *info);

// ik_closed_form_solve() at a given swivel angle (radians) for an SRS arm: every answer whose
// elbow lies at that swivel (up to 8: elbow, shoulder and wrist each two ways), listed, flagged
// and sorted as above. The swivel turns the elbow about the line from the shoulder to the wrist
// centre, from 0 where the elbow points along joint 1's axis (across that line; if the line is
// along joint 1's axis, along a fixed direction across it) (docs/closed-forms.md, "Seven joints:
// shoulder, elbow, wrist"). Other kinds ignore the swivel. Errors as ik_closed_form_solve(), and
// IK_ERR_BAD_ARG for a non-finite or huge swivel.
IKDEF ik_result ik_closed_form_solve_swivel(const ik_closed_form *cf, ik_xform target,
                                            ik_real swivel, const ik_real *near_state,
                                            const ik_real *weights, ik_closed_solution *out,
                                            int max_out, ik_closed_info *info);

// The swivel angle (-pi..pi) of an SRS arm's state q[7] into *out (see
// ik_closed_form_solve_swivel()). Errors: IK_ERR_NULL_ARG, IK_ERR_BAD_ARG (cf not SRS, q not
// finite); *out untouched on error.
IKDEF ik_result ik_closed_form_swivel(const ik_closed_form *cf, const ik_real *q, ik_real *out);

// An interval of swivel angles, lo..hi (lo in -pi..pi, lo <= hi <= lo + 2 pi: it may run past pi
// and wrap; -pi..pi is the whole turn), in which answer branch (as ik_closed_solution.branch) has
// every joint within its limits.
typedef struct ik_swivel_interval {
    ik_real lo, hi;
    int branch;
} ik_swivel_interval;

// The swivel intervals of an SRS arm for the effector pose target (docs/closed-forms.md,
// "Swivel intervals"): for each branch, where every joint has a value within its limits (a
// whole-turn equivalent counts), by branch then lo. The ends are where a joint meets a limit,
// to rounding. *count: the intervals found (the first max_out of them written to out). An
// unreachable target: none (IK_OK, *count 0).
// Errors: IK_ERR_NULL_ARG (cf, out, count), IK_ERR_BAD_ARG (cf not SRS, max_out < 1, the target
// as ik_closed_form_solve()); outputs untouched on error.
IKDEF ik_result ik_closed_form_swivel_intervals(const ik_closed_form *cf, ik_xform target,
                                                ik_swivel_interval *out, int max_out, int *count);

// ---- skeletons ---------------------------------------------------------------------------------

#ifndef IK_MAX_EFFECTORS
#define IK_MAX_EFFECTORS 64 // most effectors in one skeleton solve (bounds counts, not memory)
#endif

// A tree of joints: joint i hangs from joint parents[i]'s frame (after its motion), or from the
// skeleton's root frame for parents[i] = -1; a parent comes before its children (parents[i] < i).
// parents NULL: a chain (parents[i] = i - 1), whose joints' frames are ik_chain_fk()'s. The state
// vector holds the joints' values in index order, as a chain's (ik_skeleton_state_index()).
// Like a chain, the skeleton only points at its arrays.
typedef struct ik_skeleton {
    const ik_joint *joints; // [joint_count]
    const int *parents;     // [joint_count] or NULL
    int joint_count;        // 1 .. IK_MAX_JOINTS
} ik_skeleton;

// What an effector asks for (docs/skeletons.md, "Effectors"). Its frame is its joint's frame
// after the joint's motion, times its offset.
typedef enum ik_effector_kind {
    IK_EFFECTOR_POSITION = 0,  // the frame's origin at target
    IK_EFFECTOR_POSE = 1,      // and the frame's rotation target_rot
    IK_EFFECTOR_AIM = 2,       // the frame's axis points from its origin at the point target
                               // (look-at; the spin about the axis is free)
    IK_EFFECTOR_DIRECTION = 3, // the frame's axis along the direction target (any length > 0)
    IK_EFFECTOR_FREE_AXIS = 4  // the origin at target, the frame's rotation target_rot up to a
                               // spin about axis (the axis along target_rot * axis)
} ik_effector_kind;

// An effector and its target. Start from ik_effector_make(), then set fields.
typedef struct ik_effector {
    int joint;               // the joint that carries it, 0 .. joint_count - 1
    ik_xform offset;         // joint frame -> effector frame; rot unit
    ik_effector_kind kind;   // default IK_EFFECTOR_POSITION
    ik_vec3 axis;            // AIM, DIRECTION, FREE_AXIS: unit axis in the effector frame
    ik_vec3 target;          // position, point looked at, or direction (see the kind)
    ik_quat target_rot;      // POSE, FREE_AXIS: the rotation (normalized for use)
    ik_real position_weight; // 0 or 1e-6 .. 1e6, default 1: the position rows' weight
    ik_real rotation_weight; // 0 or 1e-6 .. 1e6, default 1: the rotation rows' weight, in units
                             // of the options' orientation_weight (model units per radian; their
                             // product capped at IK_MAX_MAGNITUDE)
    ik_real blend;           // [0, 1], default 1: the target solved for is the effector's pose at
                             // the start blended this far toward its target (0: held where it
                             // starts; positions and directions linearly, rotations by slerp)
    int priority;            // 0 (default): first; 1: as well as priority 0 leaves room for
                             // (null-space projection; docs/skeletons.md, "Priorities")
} ik_effector;

// Per effector, what a skeleton solve reached (errors against the blended target).
typedef struct ik_effector_info {
    ik_real position_error; // distance to the target position (0 for AIM and DIRECTION)
    ik_real rotation_error; // radians: POSE the rotation's angle; AIM, DIRECTION, FREE_AXIS the
                            // axis's angle from its goal; 0 for POSITION
    bool met;               // both within the options' tolerances
} ik_effector_info;

// The skeleton {joints, parents, joint_count}. Checks nothing: see ik_skeleton_validate().
IKDEF ik_skeleton ik_skeleton_make(const ik_joint *joints, const int *parents, int joint_count);
// An effector on joint at offset with target and the defaults (a position effector).
IKDEF ik_effector ik_effector_make(int joint, ik_xform offset, ik_effector_kind kind,
                                   ik_vec3 target);
// Four joints that make a floating root (a pelvis, a mobile base): prismatic along x, y and z of
// the root frame, then a ball; their six values are the position and the rotation's exponential
// map. Hang the body from joint 3 (or first + 3 where these four sit at first).
IKDEF void ik_joints_floating_root(ik_joint out_joints[4]);
// Checks a skeleton: as ik_chain_validate() for its joints; IK_ERR_BAD_ARG also for a parent
// outside -1 .. i - 1.
IKDEF ik_result ik_skeleton_validate(const ik_skeleton *skeleton);
// Length of the state vector, or -1 if ik_skeleton_validate() fails.
IKDEF int ik_skeleton_dof(const ik_skeleton *skeleton);
// Index of joint i's first value in the state vector (-1: invalid skeleton or i out of range).
IKDEF int ik_skeleton_state_index(const ik_skeleton *skeleton, int joint);
// Every joint's frame after its motion, in the root frame: out_frames[joint_count]. q as for
// ik_chain_fk(). Errors: IK_ERR_NULL_ARG, IK_ERR_BAD_ARG; outputs untouched on error.
IKDEF ik_result ik_skeleton_fk(const ik_skeleton *skeleton, const ik_real *q, ik_xform *out_frames);
// Geometric Jacobian (6 x dof, row-major) of the frame F_joint * offset at q: the rows of its
// origin's velocity, then of its angular velocity; the columns of joints that are not joint or
// its ancestors are 0. out_frames [joint_count] gets every joint's frame (as ik_skeleton_fk()).
// Errors as ik_skeleton_fk(), IK_ERR_NULL_ARG also for out_jacobian, IK_ERR_BAD_ARG for a joint
// out of range, a bad offset or out_jacobian overlapping q; outputs untouched on error.
IKDEF ik_result ik_skeleton_jacobian(const ik_skeleton *skeleton, const ik_real *q, int joint,
                                     ik_xform offset, ik_real *out_jacobian, ik_xform *out_frames);
// Bytes of scratch ik_skeleton_solve() needs for this skeleton and these effectors (their kinds:
// any targets, weights and blends; 0 if the skeleton is invalid, effectors NULL or the count
// outside 1 .. IK_MAX_EFFECTORS). A solve takes less where weights of 0 leave rows out: it
// refuses (IK_ERR_SCRATCH_TOO_SMALL) only a buffer smaller than its own effectors' rows need.
IKDEF size_t ik_skeleton_scratch_size(const ik_skeleton *skeleton, const ik_effector *effectors,
                                      int effector_count);

// Jacobian IK on a skeleton: every effector's rows stacked into one task (3 position rows, 3 for
// a rotation, 2 for an axis), each weighted, stepped as ik_jacobian_solve() steps a chain (the
// same method, limits, ball limits, rest pose, max_step per effector), with priority 1's rows in
// the null space of priority 0's (two fifths of max_iterations kept back: where the run stalls,
// both as one task, then, where priority 0 is not met, priority 0 alone; docs/skeletons.md,
// "Priorities"). With more than 6 task rows, an iteration after a full step that held to its
// linear model first applies that step's factors again (a chord step: no Jacobian or factor made;
// "Chord steps"); info's iterations count both. Converged when every effector is within the
// tolerances; unreachable when not converged and a position target is farther than the joints
// between it and the root can reach. info (may be NULL): the largest errors over the effectors;
// out_effectors (may be NULL): [effector_count] each one's errors and whether it was met.
// Errors: as ik_jacobian_solve(), and IK_ERR_BAD_ARG for an effector count outside
// 1 .. IK_MAX_EFFECTORS or a bad effector (joint out of range, non-finite or huge values, axis
// or offset rotation not unit, zero direction, weights negative, blend outside [0, 1], priority
// not 0 or 1); q untouched on error. No allocation. Checks and prepares the skeleton and the
// effectors' layout on every call: a skeleton solved many times with the same effectors can be
// prepared once (ik_skeleton_prepare()).
IKDEF ik_result ik_skeleton_solve(const ik_skeleton *skeleton, const ik_effector *effectors,
                                  int effector_count, const ik_jacobian_opts *opts, ik_real *q,
                                  void *scratch, size_t scratch_size, ik_solve_info *info,
                                  ik_effector_info *out_effectors);

// A prepared skeleton: the skeleton checked, with the layout of the effectors it is prepared for
// (their count, and each one's joint, kind, priority and rows: a weight of 0 leaves its rows out),
// and what ik_skeleton_solve() derives from them alone (the joint table, the length scale, the
// effectors' rows and columns), built once by ik_skeleton_prepare() in memory the caller owns
// (ik_skeleton_prepared_size() bytes, any alignment) and read, never written, by
// ik_skeleton_solve_prepared(): several threads may solve with one prepared skeleton at once, each
// with its own scratch. It refers to the skeleton's joints and parents (not to the ik_skeleton,
// which it copies): keep them unchanged while it is used, and prepare again after changing them
// or the effectors' layout. Prepare it in place: it holds its own address, and a byte copy
// elsewhere is refused (IK_ERR_BAD_ARG).
// Bytes of memory ik_skeleton_prepare() needs for this skeleton and effector count (0 if the
// skeleton is invalid, effectors NULL or the count outside 1 .. IK_MAX_EFFECTORS).
IKDEF size_t ik_skeleton_prepared_size(const ik_skeleton *skeleton, const ik_effector *effectors,
                                       int effector_count);

// Checks skeleton and effectors (as ik_skeleton_solve() does) and prepares the skeleton for
// effectors of their layout in the prepared_size bytes at prepared. Errors: IK_ERR_NULL_ARG
// (skeleton, effectors, prepared), IK_ERR_BAD_ARG (skeleton or effectors as for
// ik_skeleton_solve(); *skeleton, its joints, parents or the effectors overlapping the
// prepared_size bytes), IK_ERR_SCRATCH_TOO_SMALL (prepared_size); prepared untouched on error.
// O(joints + effectors x dof), no allocation.
IKDEF ik_result ik_skeleton_prepare(const ik_skeleton *skeleton, const ik_effector *effectors,
                                    int effector_count, void *prepared, size_t prepared_size);

// ik_skeleton_solve() on a prepared skeleton, with effectors of the layout it was prepared for
// (targets, offsets, axes, blends and weights may change, but a weight is 0 where, and only where,
// it was) and any options: the same q, info and out_effectors to the bit, without checking the
// skeleton and deriving its constants. scratch: at least ik_skeleton_scratch_size() bytes (less
// is enough: it need not hold the prepared skeleton). Errors: IK_ERR_NULL_ARG (prepared,
// effectors, q, scratch), IK_ERR_BAD_ARG (prepared not filled there by ik_skeleton_prepare(),
// as its marker and address tell: a copy, or most other memory;
// effectors of another layout; q, effectors or the rest pose as for ik_skeleton_solve(); q, info,
// out_effectors, the prepared skeleton, the skeleton's joints or parents or the effectors
// overlapping scratch; q, info or out_effectors overlapping the prepared skeleton),
// IK_ERR_BAD_OPTS, IK_ERR_SCRATCH_TOO_SMALL, IK_ERR_NUMERIC; q untouched on error.
IKDEF ik_result ik_skeleton_solve_prepared(const void *prepared, const ik_effector *effectors,
                                           int effector_count, const ik_jacobian_opts *opts,
                                           ik_real *q, void *scratch, size_t scratch_size,
                                           ik_solve_info *info, ik_effector_info *out_effectors);

// Bytes of scratch ik_skeleton_ccd_solve() needs for this skeleton and effector count (0: invalid).
IKDEF size_t ik_skeleton_ccd_scratch_size(const ik_skeleton *skeleton, int effector_count);

// CCD on a skeleton (docs/skeletons.md, "CCD"): each sweep visits the joints from the last to the
// first (children before parents), and each joint takes ik_ccd_solve()'s closed-form move
// (docs/ccd.md) for the weighted sum of the terms of every effector on it or its descendants: a
// position's (POSITION, POSE, FREE_AXIS), a pose's three axes, an axis and its goal direction
// (DIRECTION, FREE_AXIS), an aim's point along its axis as far as the point it looks at and that
// point. Each term is weighted by the square of the effector's position_weight or rotation_weight
// (as ik_skeleton_solve()'s rows weigh the error), times opts' position_weight (Welman's 1 + rho by
// default) or orientation_weight; lengths in units of the skeleton's size (its bones' lengths
// summed, or opts->length_scale) over its moving joints. CCD has no null space: while priority 0
// has effectors, priority 1's terms weigh 1/100, and the last fifth of max_sweeps is kept for
// priority 0 alone where the others end with it not met (else for all). Joint weights, max_angle,
// hinge and prismatic limits and ball limits as ik_ccd_solve(); blend as ik_skeleton_solve().
// Converged when every effector is within the tolerances; stalled, max iterations and unreachable
// (not converged and a position target beyond its branch's reach) as ik_ccd_solve(). info (may be
// NULL): the sweeps and the largest errors; out_effectors (may be NULL): each effector's errors and
// whether it was met, by the forward kinematics of the returned q. Errors as ik_skeleton_solve()
// (IK_ERR_BAD_OPTS for bad CCD options); q untouched on error. A chain (parents NULL) with one
// effector gives ik_ccd_solve()'s answer to rounding. Cost per sweep: one forward kinematics, an
// atan2 per moved revolute joint, and per joint the terms of the effectors below it (Horn's method
// per ball joint). No allocation.
IKDEF ik_result ik_skeleton_ccd_solve(const ik_skeleton *skeleton, const ik_effector *effectors,
                                      int effector_count, const ik_ccd_opts *opts, ik_real *q,
                                      void *scratch, size_t scratch_size, ik_solve_info *info,
                                      ik_effector_info *out_effectors);

// ---- solvers: FABRIK ---------------------------------------------------------------------------

// Options for ik_fabrik_solve(). Start from ik_default_fabrik_opts(), then change fields.
typedef struct ik_fabrik_opts {
    int max_iterations;         // forward-and-backward iterations; >= 1; default 100
    ik_real tolerance;          // converged when |effector - target| <= tolerance (model units)
                                // and, with use_rotation, the angle <= rotation_tolerance;
                                // >= 0; default 1e-6 (1e-5 with IK_USE_FLOAT)
    ik_real rotation_tolerance; // radians, >= 0; default 1e-6 (1e-5 with IK_USE_FLOAT)
    ik_real min_improvement;    // stop (stalled) after 3 iterations in a row that lower the
                                // error (distance, plus the angle times the chain's reach) by
                                // less than this fraction of the least so far; [0, 1); default
                                // 1e-9
    int _valid;                 // set by ik_default_fabrik_opts(); do not touch
} ik_fabrik_opts;

// Default FABRIK options. Never fails.
IKDEF ik_fabrik_opts ik_default_fabrik_opts(void);
// Bytes of scratch ik_fabrik_solve() needs for this chain (0 if the chain is invalid).
IKDEF size_t ik_fabrik_scratch_size(const ik_chain *chain);

// FABRIK, forward and backward reaching (Aristidou and Lasenby 2011), on any chain
// (docs/fabrik.md). The points it moves are the pivots where the chain's moving joints start a new
// point (joints at one point, such as a wrist's hinges, share it) and the effector; the distances
// between them are kept. Each iteration places the chain from the target back toward the root (the
// forward-reaching pass: the effector at the target, each joint turning so that the point before it
// goes toward where it was), then from the root out (the backward-reaching pass: each joint turning
// so that the point after it goes toward its new place). Both passes are forward kinematics through
// the joints, so every point is always where a state within the limits puts it: a revolute joint
// turns by the projection onto its hinge plane (going out, the effector's projection toward the
// target counts as much as the next point's; coming back, the first point's toward the root),
// clamped into its range along the shorter turn from where it is (no jump to the other side); a
// ball joint by the shortest arc that carries its bone (its twist kept), projected into its
// ik_ball_limit; a prismatic joint slides along its axis, clamped. A target beyond the points'
// reach straightens the chain toward it. With use_rotation, the effector is placed at the target's
// orientation and the joints at the last point take it (as closely as their axes allow). A joint
// with weight 0 is frozen; other weights are not used. A chain of free ball joints with a position
// target iterates on the points alone (the 2011 algorithm as published) and writes the joint values
// once at the end (a fast path; with IK_NO_FAST_PATHS the joints turn every iteration: the same
// points, each ball joint's twist about its bone another). q [ik_chain_dof()] is in/out: the start
// on entry (clamped into the limits first), the answer on exit: free revolute joints within pi of
// their start, ball joints the exponential map of their rotation (angle at most pi). Stops when
// converged, when iterations no longer improve (IK_STATUS_STALLED), or after max_iterations
// (IK_STATUS_MAX_ITERATIONS); not converged with the target farther from the first joint than the
// chain reaches: IK_STATUS_UNREACHABLE. info may be NULL. out_points (may be NULL): [joint_count +
// 1] every joint's pivot (its frame before its motion, at its origin) and the effector as the solve
// ended: ik_chain_fk() of the returned q puts them there, to rounding. Errors: as ik_ccd_solve(),
// IK_ERR_BAD_ARG also for out_points overlapping q, info or the scratch; q and out_points untouched
// on error. Cost per iteration O(n): on the points alone two square roots and divisions per point;
// otherwise per joint two frame products and a few square roots, an atan2 per limited revolute
// joint (a sine and cosine too where its range stops it) and a projection per limited ball joint
// (docs/fabrik.md, "Cost and convergence"). No allocation.
IKDEF ik_result ik_fabrik_solve(const ik_chain *chain, const ik_target *target,
                                const ik_fabrik_opts *opts, ik_real *q, void *scratch,
                                size_t scratch_size, ik_solve_info *info, ik_vec3 *out_points);

// Bytes of scratch ik_skeleton_fabrik_solve() needs for this skeleton and effector count (any
// effectors' kinds and joints; 0 if the skeleton is invalid, effectors NULL or the count outside
// 1 .. IK_MAX_EFFECTORS).
IKDEF size_t ik_skeleton_fabrik_scratch_size(const ik_skeleton *skeleton,
                                             const ik_effector *effectors, int effector_count);

// FABRIK on a skeleton (docs/fabrik.md, "Skeletons"), several effectors with sub-bases (Aristidou
// and Lasenby 2011): the joints on the way to the effectors split into branches at the sub-bases
// (joints with several such children) and at the effectors' joints; each branch is a chain solved
// by ik_fabrik_solve()'s passes and joint steps (limits, ball limits, frozen joints alike). Each
// iteration's forward-reaching pass goes from the branches' ends to the root: a branch's end goes
// to the weighted centroid of where its effectors and the branches hanging from it put it, its
// rotation fitted to them (weight: position_weight, times 1/100 for priority 1 while priority 0 has
// effectors; the last fifth of max_iterations kept for priority 0 alone where the rest ends with it
// not met); the backward-reaching pass goes out from the root through every branch. POSITION and
// POSE effectors (the first effector on a joint gives that branch's orientation; a POSE's rotation
// with rotation_weight 0 is not sought); AIM, DIRECTION and FREE_AXIS: IK_ERR_BAD_ARG. Joints not
// on the way to an effector only go into their limits; the others (a floating root's too) move like
// any joint of a chain. Blend as ik_skeleton_solve(). Converged when every effector is within the
// tolerances; stalled, max iterations and unreachable as ik_skeleton_ccd_solve() (the error: the
// weighted sum of each effector's distance plus its angle times the skeleton's size). info (may be
// NULL): the iterations and the largest errors; out_effectors (may be NULL): each effector's errors
// and whether it was met, by the forward kinematics of the returned q. Errors as
// ik_skeleton_ccd_solve() (IK_ERR_BAD_OPTS for bad FABRIK options); q untouched on error. One
// branch with one effector (a chain, parents NULL, the effector on the last joint) is solved by
// ik_fabrik_solve()'s own loop: the same answer, to the bit. Cost per iteration: the branches'
// chain passes, O(joints). No allocation.
IKDEF ik_result ik_skeleton_fabrik_solve(const ik_skeleton *skeleton, const ik_effector *effectors,
                                         int effector_count, const ik_fabrik_opts *opts, ik_real *q,
                                         void *scratch, size_t scratch_size, ik_solve_info *info,
                                         ik_effector_info *out_effectors);

#ifdef __cplusplus
}
#endif
#endif // IK_H_INCLUDED

// ---- implementation ----------------------------------------------------------------------------
#if defined(IK_IMPLEMENTATION) && !defined(IK__IMPLEMENTATION_DONE)
#define IK__IMPLEMENTATION_DONE
#include <stdint.h> // uintptr_t (ik__overlap), the bits of reals
// The fast paths: off with IK_NO_FAST_PATHS (the list: top comment, CONFIGURATION).
#ifdef IK_NO_FAST_PATHS
#define IK__FAST 0
#else
#define IK__FAST 1
#endif
// Exact real comparisons are meant: -Wfloat-equal off (docs/robustness.md, "Compiler options").
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wfloat-equal"
#endif
// (clang says so where its vectorizer took a loop first that IK__UNROLL asked to unroll)
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif
#ifndef IK_ASSERT // internal invariants only (never user input); off by default
#define IK_ASSERT(c) ((void)0)
#endif

// Private helpers are static and named ik__*. Definitions follow the header's order.

// Tests on the bits of |x|, which -ffast-math cannot fold (docs/robustness.md, "Compiler options").
#ifdef IK_USE_FLOAT
typedef uint32_t ik__bits;
#define IK__ABS_BITS  UINT32_C(0x7fffffff) // all but the sign
#define IK__INF_BITS  UINT32_C(0x7f800000) // +infinity: exponent all ones, fraction 0
#define IK__QNAN_BITS UINT32_C(0x7fc00000) // a quiet NaN
#define IK__SQUARABLE IK_R(1e18) // a few squares of reals from 1 / this to this are normal
#else
typedef uint64_t ik__bits;
#define IK__ABS_BITS  UINT64_C(0x7fffffffffffffff)
#define IK__INF_BITS  UINT64_C(0x7ff0000000000000)
#define IK__QNAN_BITS UINT64_C(0x7ff8000000000000)
#define IK__SQUARABLE IK_R(1e150)
#endif

// The bits of |x| (memcpy, not a union: defined in C and in C++; compiled to one move).
static inline IK__UNUSED ik__bits ik__abs_bits(ik_real x)
{
    ik__bits b;
    memcpy(&b, &x, sizeof b);
    return b & IK__ABS_BITS;
}

// A quiet NaN, from its bits (Inf * 0 raises FE_INVALID, and -ffast-math folds it to 0).
static inline IK__UNUSED ik_real ik__nan(void)
{
    ik__bits b = IK__QNAN_BITS;
    ik_real x;
    memcpy(&x, &b, sizeof x);
    return x;
}

static inline IK__UNUSED bool ik__finite(ik_real x)
{
    return ik__abs_bits(x) < IK__INF_BITS;
}

static inline IK__UNUSED bool ik__is_nan(ik_real x)
{
    return ik__abs_bits(x) > IK__INF_BITS;
}

// |x| <= IK_MAX_MAGNITUDE (false for NaN and infinities too)
static inline IK__UNUSED bool ik__bounded(ik_real x)
{
    return ik__abs_bits(x) <= ik__abs_bits(IK_MAX_MAGNITUDE); // (a constant once compiled)
}

// The bits of v's largest |component| (compared against a bound: no branch per component).
static inline IK__UNUSED ik__bits ik__vec3_max_bits(ik_vec3 v)
{
    ik__bits x = ik__abs_bits(v.x), y = ik__abs_bits(v.y), z = ik__abs_bits(v.z);
    x = x > y ? x : y;
    return x > z ? x : z;
}

static inline IK__UNUSED bool ik__vec3_bounded(ik_vec3 v)
{
    return ik__vec3_max_bits(v) <= ik__abs_bits(IK_MAX_MAGNITUDE);
}

// The bits of q's largest |component|.
static inline IK__UNUSED ik__bits ik__quat_max_bits(ik_quat q)
{
    ik__bits x = ik__abs_bits(q.x), y = ik__abs_bits(q.y), z = ik__abs_bits(q.z);
    ik__bits w = ik__abs_bits(q.w);
    x = x > y ? x : y;
    z = z > w ? z : w;
    return x > z ? x : z;
}

// Whether every |component| of q is below 2 (none NaN or infinite): the bits of values below 2
// have the exponent's top bit clear, and so does their OR.
static inline IK__UNUSED bool ik__quat_below_2(ik_quat q)
{
    return ((ik__abs_bits(q.x) | ik__abs_bits(q.y)) | (ik__abs_bits(q.z) | ik__abs_bits(q.w))) <
           ik__abs_bits(2);
}

static inline IK__UNUSED bool ik__quat_finite(ik_quat q)
{
    return ik__quat_max_bits(q) < IK__INF_BITS;
}

// A rotation to normalize: finite, and its largest component a normal number (not 0 or subnormal).
static inline IK__UNUSED bool ik__quat_usable(ik_quat q)
{
    ik__bits m = ik__quat_max_bits(q);
    return m < IK__INF_BITS && m >= ik__abs_bits(IK__REAL_MIN);
}

static IK__UNUSED ik_real ik__clamp(ik_real x, ik_real lo, ik_real hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

static IK__UNUSED ik_quat ik__quat_scale(ik_quat q, ik_real s)
{
    return ik_quat_make(q.x * s, q.y * s, q.z * s, q.w * s);
}

// q / |q| for a q of reasonable size (a product of unit quaternions, say): no guards.
static IK__UNUSED ik_quat ik__quat_unitize(ik_quat q)
{
    return ik__quat_scale(q, 1 / IK_SQRT(ik_quat_dot(q, q)));
}

// The smallest squared length that normalization accepts (below: zero or subnormal).
#define IK__TINY2 (IK_R(4) * IK__REAL_MIN)

// Rotation by angle about a unit axis (no normalization).
static IK__UNUSED ik_quat ik__quat_unit_axis(ik_vec3 axis, ik_real angle)
{
    ik_real s = IK_SIN(angle / 2);
    return ik_quat_make(axis.x * s, axis.y * s, axis.z * s, IK_COS(angle / 2));
}

// Of q and -q (one rotation), the one with w > 0; for a half turn (w = 0), the one whose first
// non-zero component of (x, y, z) is positive. So every rotation has one exponential map.
static inline IK__ALWAYS_INLINE ik_quat ik__quat_canonical(ik_quat q)
{
    bool flip =
        q.w < 0 || (q.w == 0 && (q.x < 0 || (q.x == 0 && (q.y < 0 || (q.y == 0 && q.z < 0)))));
    return flip ? ik__quat_scale(q, -1) : q;
}

// v / |v| for a bounded v (|v|^2 does not overflow); tiny ones by the careful ik_vec3_normalize.
static IK__UNUSED ik_vec3 ik__vec3_unit(ik_vec3 v)
{
    ik_real len2 = ik_vec3_length2(v);
    return len2 > IK__TINY2 ? ik_vec3_scale(v, 1 / IK_SQRT(len2)) : ik_vec3_normalize(v);
}

IKDEF const char *ik_result_string(ik_result r)
{
    switch (r) {
    case IK_OK: return "ok";
    case IK_ERR_NULL_ARG: return "a required pointer is NULL";
    case IK_ERR_BAD_ARG: return "bad argument (NaN/Inf, out of range, zero or non-unit axis)";
    case IK_ERR_BAD_OPTS: return "bad options (not from ik_default_*_opts(), or out of range)";
    case IK_ERR_SCRATCH_TOO_SMALL: return "scratch buffer too small";
    case IK_ERR_NUMERIC: return "numerical breakdown; outputs untouched";
    }
    return "unknown ik_result";
}

IKDEF const char *ik_status_string(ik_status s)
{
    switch (s) {
    case IK_STATUS_CONVERGED: return "converged";
    case IK_STATUS_MAX_ITERATIONS: return "out of iterations";
    case IK_STATUS_STALLED: return "stalled";
    case IK_STATUS_UNREACHABLE: return "unreachable";
    case IK_STATUS_LIMITED: return "limited";
    }
    return "unknown ik_status";
}

IKDEF int ik_real_size(void)
{
    return (int)sizeof(ik_real);
}

#ifdef IK__REAL_CHECK
IKDEF int IK__REAL_CHECK(void)
{
    return (int)sizeof(ik_real);
}
#endif

// ---- implementation: math ----------------------------------------------------------------------

// The power of 2 scaling a vector of largest component m into [2, 4) (docs/internals.md, "Maths").
static inline ik_real ik__unit_scale(ik_real m)
{
    ik__bits b = IK__INF_BITS - (ik__abs_bits(m) & IK__INF_BITS);
    ik_real s;
    memcpy(&s, &b, sizeof s);
    return s;
}

// The largest |component| of v (dividing by it keeps squares from over- or underflowing).
static ik_real ik__vec3_max_abs(ik_vec3 v)
{
    ik_real m = IK_FABS(v.x);
    if (IK_FABS(v.y) > m)
        m = IK_FABS(v.y);
    if (IK_FABS(v.z) > m)
        m = IK_FABS(v.z);
    return m;
}

IKDEF ik_vec3 ik_vec3_normalize(ik_vec3 v)
{
    ik_real m, len2;
    if (!ik_vec3_is_finite(v))
        return ik_vec3_zero();
    m = ik__vec3_max_abs(v);
    if (m < IK__REAL_MIN)
        return ik_vec3_zero();
    v = ik_vec3_scale(v, ik__unit_scale(m));
    len2 = ik_vec3_length2(v);
    return ik_vec3_scale(v, 1 / IK_SQRT(len2));
}

IKDEF ik_vec3 ik_vec3_any_perpendicular(ik_vec3 v)
{
    ik_vec3 u = ik_vec3_normalize(v), e;
    if (ik_vec3_length2(u) == 0)
        return ik_vec3_make(1, 0, 0);
    // Cross with the coordinate axis least aligned with v: |result| >= sqrt(2/3).
    if (IK_FABS(u.x) <= IK_FABS(u.y) && IK_FABS(u.x) <= IK_FABS(u.z))
        e = ik_vec3_make(1, 0, 0);
    else if (IK_FABS(u.y) <= IK_FABS(u.z))
        e = ik_vec3_make(0, 1, 0);
    else
        e = ik_vec3_make(0, 0, 1);
    return ik_vec3_normalize(ik_vec3_cross(u, e));
}

IKDEF bool ik_vec3_is_finite(ik_vec3 v)
{
    return ik__vec3_max_bits(v) < IK__INF_BITS;
}

IKDEF ik_quat ik_quat_normalize(ik_quat q)
{
    ik_real m, len2;
    if (!ik__quat_finite(q))
        return ik_quat_identity();
    m = ik__vec3_max_abs(ik_vec3_make(q.x, q.y, q.z));
    if (IK_FABS(q.w) > m)
        m = IK_FABS(q.w);
    if (m < IK__REAL_MIN)
        return ik_quat_identity();
    q = ik__quat_scale(q, ik__unit_scale(m));
    len2 = ik_quat_dot(q, q);
    return ik__quat_scale(q, 1 / IK_SQRT(len2));
}

IKDEF bool ik_quat_is_unit(ik_quat q, ik_real tolerance)
{
    return ik__quat_finite(q) && !ik__is_nan(tolerance) &&
           IK_FABS(ik_quat_dot(q, q) - 1) <= tolerance;
}

IKDEF ik_quat ik_quat_from_axis_angle(ik_vec3 axis, ik_real angle)
{
    ik_vec3 n = ik_vec3_normalize(axis);
    if (ik_vec3_length2(n) == 0 || !ik__finite(angle))
        return ik_quat_identity();
    return ik__quat_unit_axis(n, angle);
}

IKDEF ik_real ik_quat_to_axis_angle(ik_quat q, ik_vec3 *out_axis)
{
    // angle = 2 atan2(|xyz|, w) <= 2 fl(pi / 2) = fl(pi), never an ulp beyond
    ik_real s;
    q = ik__quat_canonical(ik_quat_normalize(q));
    s = IK_SQRT(q.x * q.x + q.y * q.y + q.z * q.z);
    if (out_axis)
        *out_axis = s > 0 ? ik_vec3_normalize(ik_vec3_make(q.x, q.y, q.z)) : ik_vec3_make(1, 0, 0);
    return 2 * IK_ATAN2(s, q.w);
}

// sin(a/2) / a from sh = sin(a/2), with its series where a is too small for the division (error
// < a^6/1e5).
static ik_real ik__sinc_half(ik_real a, ik_real sh)
{
    if (a < IK_R(1e-2))
        return IK_R(0.5) - a * a / 48 + a * a * a * a / 3840;
    return sh / a;
}

// For a bounded v, *s = sin(a/2) / (a/2) and *ch = cos(a/2), a = |v|: compiled once for every
// caller, so that each gets the same bits, also where a compiler free to reorder sums
// (-ffast-math) would round |v| apart in each inlined copy (beyond pi an ulp of |v| is many of
// the rotation's).
IK__NOINLINE static void ik__expmap_half(ik_vec3 v, ik_real *s, ik_real *ch)
{
    const ik_real a = ik_vec3_length(v);
    const ik_real sh = IK_SIN(a / 2); // (side by side: one sincos call)
    *ch = IK_COS(a / 2);
    *s = 2 * ik__sinc_half(a, sh);
}

IKDEF ik_quat ik_quat_from_expmap(ik_vec3 v)
{
    ik_real s, ch;
    if (!ik_vec3_is_finite(v))
        return ik_quat_identity();
    if (!ik__vec3_bounded(v)) // |v| may overflow: reduce first (the same rotation, |v| <= pi)
        v = ik_expmap_reparameterize(v);
    ik__expmap_half(v, &s, &ch);
    return ik_quat_make(v.x * (s / 2), v.y * (s / 2), v.z * (s / 2), ch);
}

// atan2(s, c) / s (s >= 0; a series for tiny s): the scale of a rotation logarithm's axis part.
// Below 7 degrees (s < c / 8), atan(t) / t's series in t = s / c, to t^16 (error below t^18 / 19
// < 3e-18): no arctangent (docs/jacobian.md).
static ik_real ik__atan2_per_sin(ik_real s, ik_real c)
{
    ik_real k, u, u2, u4, p;
    if (IK__FAST && c > 0 && s < c * IK_R(0.125)) { // (Estrin's scheme: short chains)
        k = 1 / c;
        u = (s * k) * (s * k);
        u2 = u * u;
        u4 = u2 * u2;
        p = (1 - u * (IK_R(1.0) / 3)) + u2 * (IK_R(1.0) / 5 - u * (IK_R(1.0) / 7));
        p += u4 * ((IK_R(1.0) / 9 - u * (IK_R(1.0) / 11)) +
                   u2 * (IK_R(1.0) / 13 - u * (IK_R(1.0) / 15)));
        return (p + u4 * u4 * (IK_R(1.0) / 17)) * k;
    }
    return s < IK_R(1e-6) ? (1 - s * s / (3 * c * c)) / c : IK_ATAN2(s, c) / s;
}

// log of a unit quaternion as an exponential map, |v| <= pi (inline: a quaternion passed or
// returned by value goes through memory, where gcc's wide loads of narrow stores stall).
static inline IK__ALWAYS_INLINE ik_vec3 ik__quat_log(ik_quat q)
{
    ik_real s, k;
    q = ik__quat_canonical(q);
    s = IK_SQRT(q.x * q.x + q.y * q.y + q.z * q.z);
    // angle = 2 atan2(s, w): accurate at both ends, unlike 2 acos(w). v = angle / s * (x, y, z)
    k = 2 * ik__atan2_per_sin(s, q.w);
    return ik_vec3_make(q.x * k, q.y * k, q.z * k);
}

IKDEF ik_vec3 ik_quat_to_expmap(ik_quat q)
{
    return ik__quat_log(ik_quat_normalize(q));
}

// a mod 2 pi for a finite a >= 0 by binary long division, exact (Sterbenz).
static ik_real ik__mod_2pi(ik_real a)
{
    ik_real p = 2 * IK_PI;
    while (p <= a / 2) // (p * 2 <= a, without the overflow of p * 2 near REAL_MAX)
        p *= 2;
    for (; p >= 2 * IK_PI; p /= 2)
        if (a >= p)
            a -= p;
    return a;
}

IKDEF ik_vec3 ik_expmap_reparameterize(ik_vec3 v)
{
    ik_real a, turns, b;
    ik_vec3 n;
    if (!ik_vec3_is_finite(v))
        return ik_vec3_zero();
    if (ik__vec3_bounded(v)) {
        a = ik_vec3_length(v);
        if (a <= IK_PI)
            return v;
        n = ik_vec3_normalize(v);
    } else {
        // |v| may overflow: measured by half (docs/internals.md, "Maths")
        n = ik_vec3_normalize(v);
        a = ik_vec3_dot(ik_vec3_scale(v, IK_R(0.5)), n);
        a = !ik__finite(a) ? 0 : (a <= IK__REAL_MAX / 2 ? 2 * a : 2 * ik__mod_2pi(a));
    }
    if (a > IK_R(1e6)) // the integer quotient below would overflow for huge a
        a = ik__mod_2pi(a);
    // the same rotation's angle b = a - 2 pi k in (-pi, pi] (Grassia's rule: k = 1)
    turns = (ik_real)(long long)((a + IK_PI) / (2 * IK_PI)); // floor: the quotient is > 0
    b = a - 2 * IK_PI * turns;
    if (b <= -IK_PI)
        b += 2 * IK_PI;
    return ik_vec3_scale(n, b);
}

IKDEF ik_mat3 ik_expmap_jacobian(ik_vec3 v)
{
    // J = I + c1 [v]x + c2 [v]x^2, series near 0 (docs/conventions.md, "Exponential map")
    ik_real a2, a, c1, c2, sh;
    ik_mat3 j;
    int r, c;
    if (!ik_vec3_is_finite(v))
        return ik_mat3_identity();
    a2 = ik__vec3_bounded(v) ? ik_vec3_length2(v) : 0;
    a = IK_SQRT(a2);
    if (!ik__vec3_bounded(v)) {
        v = ik_vec3_normalize(v);
        c1 = 0;
        c2 = 1;
    } else if (a < IK_R(1e-2)) {
        c1 = IK_R(0.5) - a2 / 24 + a2 * a2 / 720;
        c2 = IK_R(1) / 6 - a2 / 120 + a2 * a2 / 5040;
    } else {
        v = ik_vec3_scale(v, 1 / a);
        sh = IK_SIN(a / 2);
        c1 = 2 * sh * sh / a;
        c2 = 1 - IK_SIN(a) / a;
    }
    ik_real k[3][3] = { { 0, -v.z, v.y }, { v.z, 0, -v.x }, { -v.y, v.x, 0 } }; // [v]x
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++) {
            ik_real k2 = k[r][0] * k[0][c] + k[r][1] * k[1][c] + k[r][2] * k[2][c];
            j.m[r][c] = (r == c ? 1 : 0) + c1 * k[r][c] + c2 * k2;
        }
    return j;
}

// sin(h) / h and cos h for h^2 = u <= (pi / 2)^2: their Taylor series to u^11 and u^12 (errors
// below 1e-18), summed by Estrin's scheme (double only: in float its 2 ulps, against the library's
// half, left stretched chains 7e-3 short where the tests ask 5.5e-3).
static inline IK__ALWAYS_INLINE void ik__sincos_half(ik_real u, ik_real *sinc, ik_real *cosine)
{
    const ik_real u2 = u * u, u4 = u2 * u2, u8 = u4 * u4;
    ik_real p0, p1, p2;
    p0 = (1 - u * IK_R(1.0 / 6)) + u2 * (IK_R(1.0 / 120) - u * IK_R(1.0 / 5040));
    p1 = (IK_R(1.0 / 362880) - u * IK_R(1.0 / 39916800)) +
         u2 * (IK_R(1.0 / 6227020800.0) - u * IK_R(1.0 / 1307674368000.0));
    p2 = (IK_R(1.0 / 355687428096000.0) - u * IK_R(1.0 / 121645100408832000.0)) +
         u2 * (IK_R(1.0 / 51090942171709440000.0) - u * IK_R(1.0 / 25852016738884976640000.0));
    *sinc = p0 + u4 * p1 + u8 * p2;
    p0 = (1 - u * IK_R(1.0 / 2)) + u2 * (IK_R(1.0 / 24) - u * IK_R(1.0 / 720));
    p1 = (IK_R(1.0 / 40320) - u * IK_R(1.0 / 3628800)) +
         u2 * (IK_R(1.0 / 479001600) - u * IK_R(1.0 / 87178291200.0));
    p2 = (IK_R(1.0 / 20922789888000.0) - u * IK_R(1.0 / 6402373705728000.0)) +
         u2 * (IK_R(1.0 / 2432902008176640000.0) - u * IK_R(1.0 / 1124000727777607680000.0));
    *cosine = p0 + u4 * p1 + u8 * (p2 + u4 * IK_R(1.0 / 620448401733239439360000.0));
}

// exp(v), and with jacobian (NULL: none) ik_expmap_jacobian(v), both to rounding: from one sine
// and cosine of a/2 (their series up to a = pi, in a^2: no root), J = (sin a / a) I +
// c2 v v^T + c1 [v]x with v unscaled (docs/conventions.md). Inline: see ik__quat_log().
static inline IK__ALWAYS_INLINE ik_quat ik__expmap_rotation(ik_vec3 v, ik_mat3 *jacobian)
{
    ik_real a2, s, ch, c1, c2, d;
    ik_quat r;
    if (!ik__vec3_bounded(v)) { // (and not finite: as the public functions make them)
        if (jacobian)
            *jacobian = ik_expmap_jacobian(v);
        return ik_quat_from_expmap(v);
    }
    a2 = ik_vec3_length2(v);
    if (IK__FAST && sizeof(ik_real) == sizeof(double) && a2 <= IK_PI * IK_PI) // (float: below)
        ik__sincos_half(a2 / 4, &s, &ch); // (s = sin(a/2) / (a/2))
    else
        ik__expmap_half(v, &s, &ch); // (ik_quat_from_expmap()'s bits)
    r = ik_quat_make(v.x * (s / 2), v.y * (s / 2), v.z * (s / 2), ch);
    if (!jacobian)
        return r;
    if (a2 < IK_R(1e-4)) { // (as ik_expmap_jacobian(): series)
        c1 = IK_R(0.5) - a2 * (IK_R(1.0) / 24) + a2 * a2 * (IK_R(1.0) / 720);
        c2 = IK_R(1.0) / 6 - a2 * (IK_R(1.0) / 120) + a2 * a2 * (IK_R(1.0) / 5040);
        d = 1 - c2 * a2;
    } else { // ((1 - cos a) / a^2, (1 - sin(a) / a) / a^2, sin(a) / a)
        c1 = s * s / 2;
        d = s * ch;
        c2 = (1 - d) / a2;
    }
    jacobian->m[0][0] = d + c2 * v.x * v.x;
    jacobian->m[1][1] = d + c2 * v.y * v.y;
    jacobian->m[2][2] = d + c2 * v.z * v.z;
    jacobian->m[0][1] = c2 * v.x * v.y - c1 * v.z;
    jacobian->m[1][0] = c2 * v.x * v.y + c1 * v.z;
    jacobian->m[0][2] = c2 * v.x * v.z + c1 * v.y;
    jacobian->m[2][0] = c2 * v.x * v.z - c1 * v.y;
    jacobian->m[1][2] = c2 * v.y * v.z - c1 * v.x;
    jacobian->m[2][1] = c2 * v.y * v.z + c1 * v.x;
    return r;
}

// exp(v) for a step's rotation: below |v| = 0.2, from the series of sin(h) / h and cos h in
// h^2 = |v|^2 / 4 (to h^10: errors below h^12 / 12! < 3e-21), else ik_quat_from_expmap(v)
// (docs/jacobian.md).
static ik_quat ik__expmap_step(ik_vec3 v)
{
    const ik_real h2 = ik_vec3_length2(v) / 4, h4 = h2 * h2;
    ik_real s, c;
    if (!IK__FAST || !(h2 < IK_R(0.01)))
        return ik_quat_from_expmap(v);
    s = (1 - h2 * (IK_R(1.0) / 6)) + h4 * (IK_R(1.0) / 120 - h2 * (IK_R(1.0) / 5040)) +
        h4 * h4 * (IK_R(1.0) / 362880 - h2 * (IK_R(1.0) / 39916800)); // sin(h) / h
    c = (1 - h2 * (IK_R(1.0) / 2)) + h4 * (IK_R(1.0) / 24 - h2 * (IK_R(1.0) / 720)) +
        h4 * h4 * (IK_R(1.0) / 40320 - h2 * (IK_R(1.0) / 3628800));
    s *= IK_R(0.5); // (sin(h) / |v|)
    return ik_quat_make(v.x * s, v.y * s, v.z * s, c);
}

// The matrix of a unit quaternion (no normalization).
static inline IK__ALWAYS_INLINE ik_mat3 ik__quat_to_mat3_unit(ik_quat q)
{
    ik_mat3 m;
    ik_real xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    ik_real xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    ik_real wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    m.m[0][0] = 1 - 2 * (yy + zz);
    m.m[0][1] = 2 * (xy - wz);
    m.m[0][2] = 2 * (xz + wy);
    m.m[1][0] = 2 * (xy + wz);
    m.m[1][1] = 1 - 2 * (xx + zz);
    m.m[1][2] = 2 * (yz - wx);
    m.m[2][0] = 2 * (xz - wy);
    m.m[2][1] = 2 * (yz + wx);
    m.m[2][2] = 1 - 2 * (xx + yy);
    return m;
}

IKDEF ik_mat3 ik_quat_to_mat3(ik_quat q)
{
    return ik__quat_to_mat3_unit(ik_quat_normalize(q));
}

// Shepperd (1978) for a finite matrix, even one not a rotation (docs/internals.md, "Maths").
static ik_quat ik__quat_from_mat3(const ik_mat3 *m)
{
    ik_real t0 = m->m[0][0] + m->m[1][1] + m->m[2][2];
    ik_real t1 = m->m[0][0] - m->m[1][1] - m->m[2][2];
    ik_real t2 = -m->m[0][0] + m->m[1][1] - m->m[2][2];
    ik_real t3 = -m->m[0][0] - m->m[1][1] + m->m[2][2];
    ik_real s;
    ik_quat q;
    if (t0 >= t1 && t0 >= t2 && t0 >= t3) {
        s = IK_SQRT(1 + t0) * 2; // 4w
        q = ik_quat_make((m->m[2][1] - m->m[1][2]) / s, (m->m[0][2] - m->m[2][0]) / s,
                         (m->m[1][0] - m->m[0][1]) / s, s / 4);
    } else if (t1 >= t2 && t1 >= t3) {
        s = IK_SQRT(1 + t1) * 2; // 4x
        q = ik_quat_make(s / 4, (m->m[0][1] + m->m[1][0]) / s, (m->m[0][2] + m->m[2][0]) / s,
                         (m->m[2][1] - m->m[1][2]) / s);
    } else if (t2 >= t3) {
        s = IK_SQRT(1 + t2) * 2; // 4y
        q = ik_quat_make((m->m[0][1] + m->m[1][0]) / s, s / 4, (m->m[1][2] + m->m[2][1]) / s,
                         (m->m[0][2] - m->m[2][0]) / s);
    } else {
        s = IK_SQRT(1 + t3) * 2; // 4z
        q = ik_quat_make((m->m[0][2] + m->m[2][0]) / s, (m->m[1][2] + m->m[2][1]) / s, s / 4,
                         (m->m[1][0] - m->m[0][1]) / s);
    }
    q = ik__quat_unitize(q);
    return q.w < 0 ? ik__quat_scale(q, -1) : q;
}

IKDEF ik_quat ik_quat_from_mat3(ik_mat3 m)
{
    int r, c;
    ik_real big = 0;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++) {
            if (!ik__finite(m.m[r][c]))
                return ik_quat_identity();
            big = IK_FABS(m.m[r][c]) > big ? IK_FABS(m.m[r][c]) : big;
        }
    // a huge (not a rotation) matrix would overflow the sums: scale it to entries <= 1 first
    if (big > IK_MAX_MAGNITUDE)
        for (r = 0; r < 3; r++)
            for (c = 0; c < 3; c++)
                m.m[r][c] /= big;
    return ik__quat_from_mat3(&m);
}

IKDEF ik_quat ik_quat_from_two_vectors(ik_vec3 from, ik_vec3 to)
{
    // acute: the half-angle formula; obtuse: the angle by atan2 about an axis made exactly
    // perpendicular to a (docs/conventions.md, "Quaternions")
    ik_vec3 a = ik_vec3_normalize(from), b = ik_vec3_normalize(to), c, n;
    ik_real d;
    if (ik_vec3_length2(a) == 0 || ik_vec3_length2(b) == 0)
        return ik_quat_identity();
    c = ik_vec3_cross(a, b);
    d = ik_vec3_dot(a, b);
    if (d >= 0)
        return ik_quat_normalize(ik_quat_make(c.x, c.y, c.z, 1 + d));
    // (projected twice: one projection of a tiny a x b leaves a residue along a)
    n = ik_vec3_add_scaled(c, a, -ik_vec3_dot(c, a));
    n = ik_vec3_normalize(ik_vec3_add_scaled(n, a, -ik_vec3_dot(n, a)));
    if (ik_vec3_length2(n) == 0) // exactly opposite: any half turn that keeps a's plane
        n = ik_vec3_any_perpendicular(a);
    return ik__quat_unit_axis(n, IK_ATAN2(ik_vec3_length(c), d));
}

IKDEF ik_quat ik_quat_slerp(ik_quat a, ik_quat b, ik_real t)
{
    // a * exp(t * log(a^-1 b)): atan2-based, accurate near 0 and pi; the log's angle <= pi
    ik_quat d;
    ik_vec3 v;
    a = ik_quat_normalize(a);
    b = ik_quat_normalize(b);
    if (!ik__finite(t))
        return a;
    d = ik_quat_mul(ik_quat_conjugate(a), b);
    v = ik_quat_to_expmap(d);
    // (a t whose product with v overflows gives a, without the FE_OVERFLOW)
    if (IK_FABS(t) > 1 && ik__vec3_max_abs(v) > IK__REAL_MAX / IK_FABS(t))
        return ik_quat_normalize(a);
    return ik_quat_normalize(ik_quat_mul(a, ik_quat_from_expmap(ik_vec3_scale(v, t))));
}

IKDEF void ik_quat_swing_twist(ik_quat q, ik_vec3 twist_axis, ik_quat *out_swing,
                               ik_quat *out_twist)
{
    // twist: q's vector part projected on the axis, with q's w; swing = q * twist^-1
    ik_vec3 n = ik_vec3_normalize(twist_axis);
    ik_quat twist = ik_quat_identity(), swing;
    ik_real p;
    q = ik_quat_normalize(q);
    if (ik_vec3_length2(n) > 0) {
        p = q.x * n.x + q.y * n.y + q.z * n.z;
        if (p * p + q.w * q.w > IK__TINY2)
            twist = ik_quat_normalize(ik_quat_make(n.x * p, n.y * p, n.z * p, q.w));
    }
    swing = ik_quat_normalize(ik_quat_mul(q, ik_quat_conjugate(twist)));
    if (out_swing)
        *out_swing = swing;
    if (out_twist)
        *out_twist = twist;
}

IKDEF ik_mat3 ik_mat3_identity(void)
{
    ik_mat3 m = { { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } } };
    return m;
}

IKDEF ik_mat3 ik_mat3_mul(ik_mat3 a, ik_mat3 b)
{
    ik_mat3 m;
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++)
            m.m[r][c] = a.m[r][0] * b.m[0][c] + a.m[r][1] * b.m[1][c] + a.m[r][2] * b.m[2][c];
    return m;
}

IKDEF ik_mat3 ik_mat3_transpose(ik_mat3 m)
{
    ik_mat3 t;
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++)
            t.m[r][c] = m.m[c][r];
    return t;
}

IKDEF ik_vec3 ik_mat3_mul_vec3(ik_mat3 m, ik_vec3 v)
{
    return ik_vec3_make(m.m[0][0] * v.x + m.m[0][1] * v.y + m.m[0][2] * v.z,
                        m.m[1][0] * v.x + m.m[1][1] * v.y + m.m[1][2] * v.z,
                        m.m[2][0] * v.x + m.m[2][1] * v.y + m.m[2][2] * v.z);
}

// Axis indices (0 = x ...) of an Euler order and its parity (+1: cyclic); false if unknown.
static bool ik__euler_axes(ik_euler_order order, int *i, int *j, int *k, ik_real *parity)
{
    static const int axes[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
                                    { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
    int o = (int)order;
    if (o < 0 || o > 5)
        return false;
    *i = axes[o][0];
    *j = axes[o][1];
    *k = axes[o][2];
    *parity = (*j == (*i + 1) % 3) ? IK_R(1) : IK_R(-1);
    return true;
}

// Elementary rotation about coordinate axis `axis` (0, 1, 2) by angle t.
static ik_mat3 ik__mat3_axis_rotation(int axis, ik_real t)
{
    ik_mat3 m = ik_mat3_identity();
    int a = (axis + 1) % 3, b = (axis + 2) % 3;
    ik_real c = IK_COS(t), s = IK_SIN(t);
    m.m[a][a] = c;
    m.m[a][b] = -s;
    m.m[b][a] = s;
    m.m[b][b] = c;
    return m;
}

IKDEF ik_mat3 ik_mat3_from_euler(ik_vec3 e, ik_euler_order order)
{
    int i, j, k;
    ik_real parity;
    if (!ik__euler_axes(order, &i, &j, &k, &parity) || !ik_vec3_is_finite(e))
        return ik_mat3_identity();
    return ik_mat3_mul(ik__mat3_axis_rotation(i, e.x),
                       ik_mat3_mul(ik__mat3_axis_rotation(j, e.y), ik__mat3_axis_rotation(k, e.z)));
}

IKDEF ik_vec3 ik_mat3_to_euler(ik_mat3 m, ik_euler_order order)
{
    // R = R_i(a) R_j(b) R_k(c) with parity s (docs/conventions.md, "Euler angles")
    int i, j, k, r, c;
    ik_real s, cb, a, b, cc, big = 0;
    if (!ik__euler_axes(order, &i, &j, &k, &s))
        return ik_vec3_zero();
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++) {
            if (!ik__finite(m.m[r][c]))
                return ik_vec3_zero();
            big = IK_FABS(m.m[r][c]) > big ? IK_FABS(m.m[r][c]) : big;
        }
    // a huge (not a rotation) matrix would overflow the squares: scale it to entries <= 4 first
    if (big > IK_MAX_MAGNITUDE)
        for (r = 0; r < 3; r++)
            for (c = 0; c < 3; c++)
                m.m[r][c] *= ik__unit_scale(big);
    cb = IK_SQRT(m.m[i][i] * m.m[i][i] + m.m[i][j] * m.m[i][j]);
    b = IK_ATAN2(s * m.m[i][k], cb);
    if (cb > 16 * IK_EPSILON) {
        // c from row j of M = R_i(a)^T R = R_j(b) R_k(c), consistent with the a found
        ik_real ca, sa, mji, mjj;
        a = IK_ATAN2(-s * m.m[j][k], m.m[k][k]);
        ca = IK_COS(a);
        sa = IK_SIN(a);
        mji = ca * m.m[j][i] + s * sa * m.m[k][i];
        mjj = ca * m.m[j][j] + s * sa * m.m[k][j];
        cc = IK_ATAN2(s * mji, mjj);
    } else {
        a = IK_ATAN2(s * m.m[k][j], m.m[j][j]);
        cc = 0;
    }
    // atan2 returns [-pi, pi]: fold -pi to pi so that the ranges are (-pi, pi]
    a = a <= -IK_PI ? IK_PI : a;
    cc = cc <= -IK_PI ? IK_PI : cc;
    return ik_vec3_make(a, b, cc);
}

IKDEF ik_mat3 ik_mat3_interpolate_axis(ik_mat3 r0, ik_mat3 rg, ik_real s)
{
    // Rot(n, theta) = rg r0^T by quaternions (robust at theta = pi, unlike the skew part)
    ik_quat q0 = ik_quat_from_mat3(r0), qg = ik_quat_from_mat3(rg);
    ik_vec3 v = ik_quat_to_expmap(ik_quat_mul(qg, ik_quat_conjugate(q0)));
    if (!ik__finite(s))
        return ik_quat_to_mat3(q0);
    return ik_quat_to_mat3(ik_quat_mul(ik_quat_from_expmap(ik_vec3_scale(v, s)), q0));
}

IKDEF ik_xform ik_xform_identity(void)
{
    return ik_xform_translation(ik_vec3_zero());
}

IKDEF ik_xform ik_xform_translation(ik_vec3 pos)
{
    ik_xform t = { ik_quat_identity(), pos };
    return t;
}

IKDEF ik_xform ik_xform_make(ik_quat rot, ik_vec3 pos)
{
    ik_xform t = { ik_quat_normalize(rot), pos };
    return t;
}

IKDEF ik_xform ik_xform_mul(ik_xform a, ik_xform b)
{
    ik_xform t = { ik_quat_mul(a.rot, b.rot), ik_vec3_add(ik_quat_rotate(a.rot, b.pos), a.pos) };
    return t;
}

IKDEF ik_xform ik_xform_inverse(ik_xform t)
{
    ik_quat inverse_rot = ik_quat_conjugate(t.rot);
    ik_xform r = { inverse_rot, ik_vec3_negate(ik_quat_rotate(inverse_rot, t.pos)) };
    return r;
}

IKDEF ik_vec3 ik_xform_apply(ik_xform t, ik_vec3 p)
{
    return ik_vec3_add(ik_quat_rotate(t.rot, p), t.pos);
}

IKDEF ik_vec3 ik_xform_apply_direction(ik_xform t, ik_vec3 d)
{
    return ik_quat_rotate(t.rot, d);
}

// ---- implementation: ball-joint limits (docs/limits.md) ----------------------------------------

#define IK__UNIT_TOL    IK_R(1e-4)        // how far from unit a given rotation or axis may be
#define IK__LIMIT_SLACK (32 * IK_EPSILON) // rounding allowed at the boundary (the split, rebuilt)

IKDEF ik_result ik_ball_limit_make(ik_vec3 twist_axis, ik_vec3 x_axis, ik_real swing_x,
                                   ik_real swing_y, ik_real twist_lo, ik_real twist_hi,
                                   ik_ball_limit *out)
{
    ik_vec3 z = ik_vec3_normalize(twist_axis), x, y;
    if (!out)
        return IK_ERR_NULL_ARG;
    if (ik_vec3_length2(z) == 0 || !ik_vec3_is_finite(x_axis) || !ik__finite(swing_x) ||
        !ik__finite(swing_y) || !ik__finite(twist_lo) || !ik__finite(twist_hi) || swing_x < 0 ||
        swing_y < 0 || swing_x > IK_PI || swing_y > IK_PI || twist_lo < -IK_PI ||
        twist_hi > IK_PI || twist_lo > twist_hi)
        return IK_ERR_BAD_ARG;
    // the cone's x axis: x_axis without its part along z (else any perpendicular)
    x = ik_vec3_normalize(ik_vec3_sub(x_axis, ik_vec3_scale(z, ik_vec3_dot(x_axis, z))));
    if (ik_vec3_length2(x) == 0 || IK_FABS(ik_vec3_dot(x, z)) > IK_R(0.5))
        x = ik_vec3_any_perpendicular(z);
    // again: an x_axis near z leaves x off perpendicular by epsilon / sin(angle)
    x = ik_vec3_normalize(ik_vec3_sub(x, ik_vec3_scale(z, ik_vec3_dot(x, z))));
    y = ik_vec3_cross(z, x);
    {
        ik_mat3 axes = { { { x.x, y.x, z.x }, { x.y, y.y, z.y }, { x.z, y.z, z.z } } };
        out->axes = axes;
    }
    // tan(angle / 4) (a swing about x tilts z toward y)
    out->cone[0] = IK_SIN(swing_y / 4) / IK_COS(swing_y / 4);
    out->cone[1] = IK_SIN(swing_x / 4) / IK_COS(swing_x / 4);
    out->twist[0] = twist_lo;
    out->twist[1] = twist_hi;
    // (cos >= 0: in float IK_PI / 2 is beyond pi / 2, and the twist test orders on the half angle)
    out->twist_half[0] = IK_COS(twist_lo / 2) > 0 ? IK_COS(twist_lo / 2) : 0;
    out->twist_half[1] = IK_SIN(twist_lo / 2);
    out->twist_half[2] = IK_COS(twist_hi / 2) > 0 ? IK_COS(twist_hi / 2) : 0;
    out->twist_half[3] = IK_SIN(twist_hi / 2);
    return IK_OK;
}

// r if it is a unit quaternion to rounding (the usual case: no normalization), else normalized.
static ik_quat ik__quat_unit_or_normalize(ik_quat r)
{
    return ik__abs_bits(ik_quat_dot(r, r) - 1) <= ik__abs_bits(16 * IK_EPSILON)
               ? r
               : ik_quat_normalize(r);
}

// |column r . column c - (r == c)| of a's columns (on the bits), inline: constant r, c.
static inline IK__ALWAYS_INLINE ik__bits ik__axes_off(const ik_real (*a)[3], int r, int c)
{
    return ik__abs_bits(a[0][r] * a[0][c] + a[1][r] * a[1][c] + a[2][r] * a[2][c] -
                        (r == c ? 1 : 0));
}

// A limit as ik_ball_limit_make() makes it: finite, semi-axes in [0, 1], ordered twist ends in
// [-pi, pi] with unit half-angle vectors, orthonormal axes (to 1e-4, as ik_joint's rotations).
static bool ik__ball_limit_valid(const ik_ball_limit *l)
{
    const ik_real *h = l->twist_half;
    const ik__bits tol = ik__abs_bits(IK__UNIT_TOL); // (tests on the bits: NaN fails them)
    const ik_real(*a)[3] = l->axes.m;
    // (A^T A = I: the columns' dot products, each pair once)
    return ik__axes_off(a, 0, 0) <= tol && ik__axes_off(a, 0, 1) <= tol &&
           ik__axes_off(a, 0, 2) <= tol && ik__axes_off(a, 1, 1) <= tol &&
           ik__axes_off(a, 1, 2) <= tol && ik__axes_off(a, 2, 2) <= tol &&
           ik__abs_bits(l->cone[0]) <= ik__abs_bits(1) &&
           ik__abs_bits(l->cone[1]) <= ik__abs_bits(1) && l->cone[0] >= 0 && l->cone[1] >= 0 &&
           ik__abs_bits(l->twist[0]) <= ik__abs_bits(IK_PI) &&
           ik__abs_bits(l->twist[1]) <= ik__abs_bits(IK_PI) && l->twist[0] <= l->twist[1] &&
           ik__abs_bits(h[0] * h[0] + h[1] * h[1] - 1) <= tol &&
           ik__abs_bits(h[2] * h[2] + h[3] * h[3] - 1) <= tol;
}

// A rotation in the limit's axes as swing * twist, kept unnormalized to spare divisions
// (docs/limits.md, "Swing and twist"; n = cos(swing / 2)).
typedef struct ik__swing_twist {
    ik_real swing[2]; // (x, y) times scale: tan(swing angle / 4) times the swing's unit axis
    ik_real scale;    // n (1 + n) (a half-turn swing: |swing|)
    ik_real swing_w;  // the swing is (swing[0], swing[1], 0, swing_w) / n (half turn: / scale)
    ik_real n;        // n (half turn: 0)
    ik_real half[2];  // cos, sin of the twist angle / 2, times n (half turn: 1, 0)
    ik_real slack;    // the rounding allowed in swing, 32 epsilon / n there (it grows near pi)
} ik__swing_twist;

static inline IK__ALWAYS_INLINE ik__swing_twist ik__limit_split(const ik_ball_limit *limit,
                                                                ik_quat unit)
{
    const ik_mat3 *m = &limit->axes; // (the vector part in the limit's axes: m^T v)
    ik_real vx = m->m[0][0] * unit.x + m->m[1][0] * unit.y + m->m[2][0] * unit.z;
    ik_real vy = m->m[0][1] * unit.x + m->m[1][1] * unit.y + m->m[2][1] * unit.z;
    ik_real vz = m->m[0][2] * unit.x + m->m[1][2] * unit.y + m->m[2][2] * unit.z;
    ik_quat q = ik_quat_make(vx, vy, vz, unit.w);
    ik__swing_twist st;
    ik_real n2 = q.z * q.z + q.w * q.w, n;
    if (q.w < 0) // (q and -q: the same rotation; w >= 0 keeps the swing within pi)
        q = ik__quat_scale(q, -1);
    if (n2 > IK__TINY2) {
        n = IK_SQRT(n2);
        st.half[0] = q.w;
        st.half[1] = q.z;
        st.n = n;
        st.scale = n * (1 + n);
        st.swing_w = n2;
        st.swing[0] = q.w * q.x - q.z * q.y;
        st.swing[1] = q.z * q.x + q.w * q.y;
        st.slack = IK__LIMIT_SLACK * (1 + n);
    } else { // a half-turn swing: no twist
        st.half[0] = 1;
        st.half[1] = 0;
        st.n = 0;
        st.scale = IK_SQRT(q.x * q.x + q.y * q.y);
        st.swing_w = 0;
        st.swing[0] = q.x;
        st.swing[1] = q.y;
        st.slack = IK__LIMIT_SLACK * st.scale;
    }
    return st;
}

// The swing in the cone, (x / a)^2 + (y / b)^2 <= 1, its coordinates less slack (without
// divisions: a or b may be 0, a segment).
static inline IK__ALWAYS_INLINE bool ik__cone_contains(const ik_ball_limit *limit,
                                                       const ik__swing_twist *st, ik_real slack)
{
    ik_real a = limit->cone[0], b = limit->cone[1], m = st->scale, c = a > b ? a : b, k;
    ik_real x = IK_FABS(st->swing[0]) - slack, y = IK_FABS(st->swing[1]) - slack;
    x = x > 0 ? x : 0;
    y = y > 0 ? y : 0;
    if ((a <= b ? a : b) <= c * (IK_EPSILON / 16) || c <= IK_EPSILON) // a segment, a point
        return a <= b ? x <= 0 && y <= b * m : y <= 0 && x <= a * m;  // (as ik__cone_nearest)
    if (c < IK_R(1e-3)) { // (scaled by 1 / c: the squares below would underflow)
        k = 1 / c;
        a *= k, b *= k, x *= k, y *= k;
    }
    return (x * b) * (x * b) + (y * a) * (y * a) <= (a * b * m) * (a * b * m);
}

// The twist within [lo, hi]: its half angle between theirs (all in [-pi/2, pi/2]).
static inline IK__ALWAYS_INLINE bool ik__twist_contains(const ik_ball_limit *limit,
                                                        const ik__swing_twist *st, ik_real slack)
{
    const ik_real *h = limit->twist_half, *half = st->half;
    const ik_real lo = half[1] * h[0] - half[0] * h[1], hi = half[0] * h[3] - half[1] * h[2];
    if (lo >= -slack && hi >= -slack)
        return true;
    return half[0] <= slack && lo <= slack && hi <= slack; // (w = 0: the twist pi is also -pi)
}

// Whether a rotation of angle theta (|q.xyz| = sin(theta / 2), |q.w| = cos(theta / 2)) is surely
// within the limit, by a margin far beyond rounding (false: not known): its swing and its twist
// are no larger than theta, and theta is below the cone's smaller semi-axis and the twist's ends
// (docs/limits.md, "A quick test"). q unit: tan(theta / 4) = |q.xyz| / (1 + |q.w|).
static inline IK__ALWAYS_INLINE bool ik__quat_surely_within(const ik_ball_limit *limit, ik_quat q)
{
    const ik_real *h = limit->twist_half, margin = IK_R(1e-3);
    const ik_real s2 = q.x * q.x + q.y * q.y + q.z * q.z, w = IK_FABS(q.w);
    const ik_real cone = limit->cone[0] < limit->cone[1] ? limit->cone[0] : limit->cone[1];
    const ik_real cone_w = (1 - margin) * cone * (1 + w), lo = -h[1] * w - margin,
                  hi = h[3] * w - margin; // (sin(end / 2) cos(theta / 2) less the margin)
    return IK__FAST && s2 < cone_w * cone_w && lo > 0 && hi > 0 && s2 * (h[0] * h[0]) < lo * lo &&
           s2 * (h[2] * h[2]) < hi * hi;
}

// ik__quat_surely_within() for the rotation exp(v) (v [3]), without it: theta = |v|, and
// tan(theta / 4) < pi^2 theta / (4 pi^2 - theta^2) (Becker and Stark) below the cone's semi-axis.
static inline IK__ALWAYS_INLINE bool ik__expmap_surely_within(const ik_ball_limit *limit,
                                                              const ik_real *v)
{
    const ik_real keep = 1 - IK_R(1e-3), pi2 = IK_PI * IK_PI;
    const ik_real t2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    const ik_real *h = limit->twist_half, sh = -h[1] < h[3] ? -h[1] : h[3]; // (sin(end / 2))
    const ik_real twist = 2 * sh * (1 + sh * sh / 6); // (<= 2 asin(sh): the exact test's end)
    const ik_real cone = limit->cone[0] < limit->cone[1] ? limit->cone[0] : limit->cone[1];
    const ik_real d = keep * cone * (4 * pi2 - t2); // (> 0: t2 < pi^2 below)
    return IK__FAST && twist > 0 && t2 < (keep * twist) * (keep * twist) && pi2 * pi2 * t2 < d * d;
}

// The root t of (alpha / (a2 + t))^2 + (beta / (b2 + t))^2 = 1 (a point outside the ellipse of
// semi-axes sqrt(a2), sqrt(b2), the larger near 1): Newton's method on 1 / |e(t)| - 1, concave
// and nearly linear in t, from the lower bound (docs/limits.md, "Projection").
static inline IK__ALWAYS_INLINE ik_real ik__ellipse_root(ik_real a2, ik_real b2, ik_real alpha,
                                                         ik_real beta)
{
    const ik_real stop = (ik_real)(sizeof(ik_real) < sizeof(double) ? 1e-4 : 1e-8);
    ik_real low = alpha - a2 > beta - b2 ? alpha - a2 : beta - b2, least = a2 < b2 ? a2 : b2, t;
    int i;
    t = low = low > 0 ? low : 0;
    if (a2 == b2) // a circle: the root in closed form (the nearest point along p)
        return IK_SQRT(alpha * alpha + beta * beta) - a2;
    for (i = 0; i < 16; i++) { // (a step: (sqrt(n) - A B) n / W, W = x^2 B + y^2 A)
        ik_real A = a2 + t, B = b2 + t, x = alpha * B, y = beta * A, x2 = x * x, y2 = y * y;
        ik_real n = x2 + y2, step = (IK_SQRT(n) - A * B) * (n / (x2 * B + y2 * A));
        t = t + step > low ? t + step : low;
        if (IK_FABS(step) <= stop * (t + least))
            break;
    }
    return t;
}

// The swing moved to p', the point of the cone's ellipse nearest its tan(angle / 4) coordinates
// p: out[0..2] / out[3] = (2 p', 1 - |p'|^2) / (1 + |p'|^2), its (x, y, w) (docs/limits.md,
// "Projection").
static inline IK__ALWAYS_INLINE void ik__cone_nearest(const ik_ball_limit *limit,
                                                      const ik__swing_twist *st, ik_real *out)
{
    ik_real a = limit->cone[0], b = limit->cone[1], m = st->scale, c = a > b ? a : b;
    ik_real u = IK_FABS(st->swing[0]), v = IK_FABS(st->swing[1]), g[2], e;
    // a segment or a point, to rounding (and the scaling below within range)
    if ((a <= b ? a : b) <= c * (IK_EPSILON / 16) || c <= IK_EPSILON) {
        g[0] = a <= b ? 0 : (u < a * m ? u : a * m);
        g[1] = a <= b ? (v < b * m ? v : b * m) : 0;
        e = m;
    } else { // scaled by k, so that the larger semi-axis c m k is between 1/4 and 2: p = g / e
        ik_real k = 1 / c, a1, b1, u1, v1, t, A, B;
        if (m < IK_R(0.25)) // (a swing beyond 156 degrees; else no division by m: c m k = m)
            k = 1 / (c * m);
        a1 = a * m * k;
        b1 = b * m * k;
        u1 = u * k;
        v1 = v * k;
        t = ik__ellipse_root(a1 * a1, b1 * b1, a1 * u1, b1 * v1);
        A = a1 * a1 + t;
        B = b1 * b1 + t;
        g[0] = a1 * a1 * u1 * B;
        g[1] = b1 * b1 * v1 * A;
        e = m * k * A * B;
    }
    out[0] = 2 * e * (st->swing[0] < 0 ? -g[0] : g[0]);
    out[1] = 2 * e * (st->swing[1] < 0 ? -g[1] : g[1]);
    out[2] = e * e - g[0] * g[0] - g[1] * g[1];
    out[3] = e * e + g[0] * g[0] + g[1] * g[1];
}

// The rotation swing * twist, back in the rest frame: s the swing's (x, y, w), h the twist's
// half-angle cos and sin, both times 1 / k.
static inline IK__ALWAYS_INLINE ik_quat ik__limit_join(const ik_ball_limit *limit, const ik_real *s,
                                                       const ik_real *h, ik_real k)
{
    ik_real c = h[0] * k, sn = h[1] * k;
    ik_vec3 v = ik_mat3_mul_vec3(
        limit->axes, ik_vec3_make(c * s[0] + sn * s[1], c * s[1] - sn * s[0], s[2] * sn));
    return ik_quat_make(v.x, v.y, v.z, s[2] * c);
}

IKDEF bool ik_ball_limit_contains(const ik_ball_limit *limit, ik_quat r)
{
    ik__swing_twist st;
    if (!limit)
        return false;
    r = ik__quat_unit_or_normalize(r);
    if (ik__quat_surely_within(limit, r))
        return true;
    st = ik__limit_split(limit, r);
    return ik__cone_contains(limit, &st, st.slack) &&
           ik__twist_contains(limit, &st, IK__LIMIT_SLACK);
}

IKDEF ik_quat ik_ball_limit_project(const ik_ball_limit *limit, ik_quat r)
{
    ik_quat unit = ik__quat_unit_or_normalize(r), out;
    ik__swing_twist st;
    ik_real swing[4], half[2], den;
    if (!limit)
        return r;
    if (ik__quat_surely_within(limit, unit))
        return IK_FABS(ik_quat_dot(r, r) - 1) <= 64 * IK_EPSILON ? r : unit;
    st = ik__limit_split(limit, unit);
    if (ik__cone_contains(limit, &st, st.slack) &&
        ik__twist_contains(limit, &st, IK__LIMIT_SLACK)) // r as given if it is a unit quaternion
        return IK_FABS(ik_quat_dot(r, r) - 1) <= 64 * IK_EPSILON ? r : unit;
    // each part outside its exact limit to its nearest point; a part within stays (the rounding
    // of the result's split is then within the slack)
    if (ik__cone_contains(limit, &st, 0)) {
        swing[0] = st.swing[0];
        swing[1] = st.swing[1];
        swing[2] = st.swing_w;
        swing[3] = st.n > 0 ? st.n : st.scale;
    } else {
        ik__cone_nearest(limit, &st, swing);
    }
    if (ik__twist_contains(limit, &st, 0)) {
        half[0] = st.half[0];
        half[1] = st.half[1];
        den = swing[3] * (st.n > 0 ? st.n : 1);
    } else { // the nearer end, on the circle of twist angles
        const ik_real *h = limit->twist_half;
        ik_real to_lo = IK_FABS(st.half[0] * h[0] + st.half[1] * h[1]);
        ik_real to_hi = IK_FABS(st.half[0] * h[2] + st.half[1] * h[3]);
        half[0] = to_hi >= to_lo ? h[2] : h[0];
        half[1] = to_hi >= to_lo ? h[3] : h[1];
        den = swing[3];
    }
    out = ik__limit_join(limit, swing, half, 1 / den);
    return ik_quat_dot(out, unit) < 0 ? ik__quat_scale(out, -1) : out;
}

// The exponential map v [3], stretched or shrunk by a few epsilon, within limit (true), or as
// it was (false).
static bool ik__expmap_stretch_within(const ik_ball_limit *limit, ik_real *v)
{
    static const ik_real stretch[4] = { 8, -8, 64, -64 };
    int k;
    if (ik__expmap_surely_within(limit, v) ||
        ik_ball_limit_contains(limit, ik_quat_from_expmap(ik_vec3_make(v[0], v[1], v[2]))))
        return true; // (as it is: the usual case)
    for (k = 0; k < 4; k++) {
        ik_real f = 1 + stretch[k] * IK_EPSILON;
        ik_vec3 m = ik_vec3_make(v[0] * f, v[1] * f, v[2] * f);
        if (ik_ball_limit_contains(limit, ik_quat_from_expmap(m))) {
            v[0] = m.x, v[1] = m.y, v[2] = m.z;
            return true;
        }
    }
    return false;
}

// ---- implementation: chain ---------------------------------------------------------------------

// |q|^2 and |axis|^2 must be within this of 1 in a chain (rounding of user data).

IKDEF int ik_joint_type_dof(ik_joint_type type)
{
    switch (type) {
    case IK_JOINT_FIXED: return 0;
    case IK_JOINT_REVOLUTE: return 1;
    case IK_JOINT_PRISMATIC: return 1;
    case IK_JOINT_BALL: return 3;
    }
    return 0;
}

static ik_joint ik__joint(ik_joint_type type, ik_xform origin, ik_vec3 axis, ik_real lo, ik_real hi)
{
    ik_joint j = { type, origin, ik_vec3_normalize(axis), lo, hi, 1, NULL };
    return j;
}

IKDEF ik_joint ik_joint_fixed(ik_xform origin)
{
    return ik__joint(IK_JOINT_FIXED, origin, ik_vec3_make(0, 0, 1), -IK_INFINITY, IK_INFINITY);
}

IKDEF ik_joint ik_joint_revolute(ik_xform origin, ik_vec3 axis)
{
    return ik__joint(IK_JOINT_REVOLUTE, origin, axis, -IK_INFINITY, IK_INFINITY);
}

IKDEF ik_joint ik_joint_prismatic(ik_xform origin, ik_vec3 axis)
{
    return ik__joint(IK_JOINT_PRISMATIC, origin, axis, -IK_INFINITY, IK_INFINITY);
}

IKDEF ik_joint ik_joint_ball(ik_xform origin)
{
    return ik__joint(IK_JOINT_BALL, origin, ik_vec3_make(0, 0, 1), -IK_INFINITY, IK_INFINITY);
}

IKDEF ik_chain ik_chain_make(const ik_joint *joints, int joint_count, ik_xform tip)
{
    ik_chain c = { joints, joint_count, tip };
    return c;
}

// (components beyond 2, NaN and Inf are refused before the squared length could overflow)
static inline IK__ALWAYS_INLINE bool ik__xform_valid(const ik_xform *t)
{
    return ik__vec3_bounded(t->pos) && ik__quat_below_2(t->rot) &&
           IK_FABS(ik_quat_dot(t->rot, t->rot) - 1) <= IK__UNIT_TOL;
}

// lo <= hi, neither NaN; infinite limits mean "none" (so lo = hi = +-Inf is no range).
static bool ik__limits_valid(ik_real lo, ik_real hi)
{
    return !ik__is_nan(lo) && !ik__is_nan(hi) && lo <= hi &&
           (ik__finite(lo) || ik__finite(hi) || lo < hi);
}

static ik_result ik__joint_validate(const ik_joint *j)
{
    if ((int)j->type < IK_JOINT_FIXED || (int)j->type > IK_JOINT_BALL ||
        !ik__xform_valid(&j->origin) || !ik__finite(j->weight) || j->weight < 0)
        return IK_ERR_BAD_ARG;
    if (j->type == IK_JOINT_REVOLUTE || j->type == IK_JOINT_PRISMATIC) {
        if (!ik__quat_below_2(ik_quat_make(j->axis.x, j->axis.y, j->axis.z, 0)) ||
            !(IK_FABS(ik_vec3_length2(j->axis) - 1) <= IK__UNIT_TOL))
            return IK_ERR_BAD_ARG;
        if (!ik__limits_valid(j->lo, j->hi))
            return IK_ERR_BAD_ARG;
    }
    // a ball joint's lo, hi must say "none" (on the bits: -Inf, Inf): its limits are j->limit
    if (j->type == IK_JOINT_BALL && !(ik__abs_bits(j->lo) == IK__INF_BITS &&
                                      ik__abs_bits(j->hi) == IK__INF_BITS && j->lo < j->hi))
        return IK_ERR_BAD_ARG;
    if (j->limit && (j->type != IK_JOINT_BALL || !ik__ball_limit_valid(j->limit)))
        return IK_ERR_BAD_ARG;
    return IK_OK;
}

IKDEF ik_result ik_chain_validate(const ik_chain *chain)
{
    int i;
    if (!chain || !chain->joints)
        return IK_ERR_NULL_ARG;
    if (chain->joint_count < 1 || chain->joint_count > IK_MAX_JOINTS)
        return IK_ERR_BAD_ARG;
    if (!ik__xform_valid(&chain->tip))
        return IK_ERR_BAD_ARG;
    for (i = 0; i < chain->joint_count; i++)
        if (ik__joint_validate(&chain->joints[i]) != IK_OK)
            return IK_ERR_BAD_ARG;
    return IK_OK;
}

// DOF of a chain already validated.
static int ik__chain_dof(const ik_chain *chain)
{
    int i, dof = 0;
    for (i = 0; i < chain->joint_count; i++)
        dof += ik_joint_type_dof(chain->joints[i].type);
    return dof;
}

IKDEF int ik_chain_dof(const ik_chain *chain)
{
    return ik_chain_validate(chain) == IK_OK ? ik__chain_dof(chain) : -1;
}

IKDEF int ik_chain_state_index(const ik_chain *chain, int joint)
{
    int i, index = 0;
    if (ik_chain_validate(chain) != IK_OK || joint < 0 || joint >= chain->joint_count)
        return -1;
    for (i = 0; i < joint; i++)
        index += ik_joint_type_dof(chain->joints[i].type);
    return index;
}

// Validates a joint-state vector of dof values (for a chain already validated).
static ik_result ik__state_validate(const ik_real *q, int dof)
{
    int i;
    if (!q)
        return IK_ERR_NULL_ARG;
    for (i = 0; i < dof; i++)
        if (!ik__bounded(q[i]))
            return IK_ERR_BAD_ARG;
    return IK_OK;
}

// Validates a chain and a joint-state vector for it; *out_dof gets the DOF.
static ik_result ik__chain_state_validate(const ik_chain *chain, const ik_real *q, int *out_dof)
{
    ik_result r = ik_chain_validate(chain);
    if (r != IK_OK)
        return r;
    *out_dof = ik__chain_dof(chain);
    return ik__state_validate(q, *out_dof);
}

// Rotation about coordinate axis 0, 1 or 2 by angle t, as a quaternion.
static ik_quat ik__quat_axis(int axis, ik_real t)
{
    return ik__quat_unit_axis(ik_vec3_make(axis == 0 ? 1 : 0, axis == 1 ? 1 : 0, axis == 2 ? 1 : 0),
                              t);
}

// A ball joint's rotation: exp(q), or (euler) yaw-pitch-roll angles, R = Ry(q0) Rx(q1) Rz(q2).
static ik_quat ik__ball_rotation(const ik_real *q, bool euler)
{
    if (!euler)
        return ik_quat_from_expmap(ik_vec3_make(q[0], q[1], q[2]));
    return ik_quat_mul(ik__quat_axis(1, q[0]),
                       ik_quat_mul(ik__quat_axis(0, q[1]), ik__quat_axis(2, q[2])));
}

static inline void ik__jacobian_set(ik_real *jac, int rows, int dof, int col, ik_vec3 lin,
                                    ik_vec3 ang)
{
    const ptrdiff_t stride = dof; // (the rows' offsets in pointer arithmetic)
    ik_real *j = jac + col;
    j[0] = lin.x;
    j[stride] = lin.y;
    j[2 * stride] = lin.z;
    if (rows == 6) {
        j[3 * stride] = ang.x;
        j[4 * stride] = ang.y;
        j[5 * stride] = ang.z;
    }
}

// R <- R Rot(e_k, angle), c and s its cos and sin (docs/internals.md, "The kinematics pass").
static inline void ik__mat3_turn(ik_mat3 *r, int k, ik_real c, ik_real s)
{
    int a = k == 2 ? 0 : k + 1, b = k == 0 ? 2 : k - 1;
    ik_real a0 = r->m[0][a], a1 = r->m[1][a], a2 = r->m[2][a];
    ik_real b0 = r->m[0][b], b1 = r->m[1][b], b2 = r->m[2][b];
    r->m[0][a] = c * a0 + s * b0, r->m[1][a] = c * a1 + s * b1, r->m[2][a] = c * a2 + s * b2;
    r->m[0][b] = c * b0 - s * a0, r->m[1][b] = c * b1 - s * a1, r->m[2][b] = c * b2 - s * a2;
}

// The rotation about the unit axis a by the angle of cosine c and sine s (Rodrigues).
static ik_mat3 ik__mat3_axis_angle(ik_vec3 a, ik_real c, ik_real s)
{
    ik_mat3 m;
    ik_real t = 1 - c;
    m.m[0][0] = c + t * a.x * a.x, m.m[0][1] = t * a.x * a.y - s * a.z;
    m.m[0][2] = t * a.x * a.z + s * a.y, m.m[1][0] = t * a.x * a.y + s * a.z;
    m.m[1][1] = c + t * a.y * a.y, m.m[1][2] = t * a.y * a.z - s * a.x;
    m.m[2][0] = t * a.x * a.z - s * a.y, m.m[2][1] = t * a.y * a.z + s * a.x;
    m.m[2][2] = c + t * a.z * a.z;
    return m;
}

// The coordinate axis k (0, 1, 2) that the unit axis v lies along, or -1.
static int ik__coordinate_axis(ik_vec3 v)
{
    if (v.y == 0 && v.z == 0)
        return 0;
    if (v.x == 0 && v.z == 0)
        return 1;
    return v.x == 0 && v.y == 0 ? 2 : -1;
}

// Whether a unit quaternion stands for more than the identity (an origin's or tip's rotation).
static inline bool ik__quat_turns(ik_quat o)
{
    return o.x != 0 || o.y != 0 || o.z != 0;
}

// What the kinematics pass needs to know of a joint, in bits (docs/internals.md, "Joint tables").
#define IK__CODE_AXIS    3  // bits 0-1: 0, 1, 2 = +-e_k, 3 = a general axis
#define IK__CODE_NEG     4  // along -e_k
#define IK__CODE_ROTATED 8  // origin.rot is not the identity
#define IK__CODE_TYPE    16 // bits 4-5: the ik_joint_type
#define IK__CODE_ORIGIN  64 // bits 6-7 (table only, with ROTATED): about e_k, k = 0, 1, 2; 3: not
static inline int ik__joint_code(const ik_joint *j)
{
    int code = (int)j->type * IK__CODE_TYPE, axis = 3;
    if (!IK__FAST) // (every origin a general rotation, every axis a general axis)
        return code | IK__CODE_ROTATED | axis;
    if (ik__quat_turns(j->origin.rot))
        code |= IK__CODE_ROTATED;
    if (j->type == IK_JOINT_REVOLUTE || j->type == IK_JOINT_PRISMATIC) {
        axis = ik__coordinate_axis(j->axis);
        if (axis < 0)
            axis = 3;
        else if ((axis == 0 ? j->axis.x : axis == 1 ? j->axis.y : j->axis.z) < 0)
            code |= IK__CODE_NEG;
    }
    return code | axis;
}

// Whether a joint of this code keeps a chain planar: fixed, or revolute about +-z, not rotated.
static inline bool ik__code_planar(int code)
{
    return code == IK_JOINT_FIXED * IK__CODE_TYPE + 3 ||
           (code & ~IK__CODE_NEG) == IK_JOINT_REVOLUTE * IK__CODE_TYPE + 2;
}

// What the solvers read off their chain once per solve (into their scratch) for the kinematics
// passes: per joint its code and, for a rotated origin, the rotation as a row-major matrix.
typedef struct ik__joint_table {
    const ik_real *origin;     // [9 per rotated origin], in the chain's order
    const unsigned char *code; // [joint_count]
    bool planar;               // every joint revolute about +-z or fixed, no origin rotated
    ik_real *memo; // planar: [3 per joint] q, cos q, sin q of the last pass (NaN: none yet;
                   // compared bit for bit)
} ik__joint_table;

// Reals of scratch for a chain's table: its codes, a matrix per rotated origin, the planar memo.
static size_t ik__table_reals(const ik_chain *chain)
{
    size_t n = 0;
    int i;
    for (i = 0; i < chain->joint_count; i++) // (rotated: as ik__joint_code() tests it)
        n += !IK__FAST || ik__quat_turns(chain->joints[i].origin.rot);
    return 9 * n + 3 * (size_t)chain->joint_count +
           ((size_t)chain->joint_count + sizeof(ik_real) - 1) / sizeof(ik_real);
}

// The table of a validated chain, written at base (ik__table_reals() reals).
static ik__joint_table ik__joint_table_make(const ik_chain *chain, ik_real *base)
{
    unsigned char *code = (unsigned char *)(void *)base;
    ik_real *o = base + ((size_t)chain->joint_count + sizeof(ik_real) - 1) / sizeof(ik_real);
    ik__joint_table t = { o, code, true, NULL };
    int i, r, c;
    for (i = 0; i < chain->joint_count; i++) {
        code[i] = (unsigned char)ik__joint_code(&chain->joints[i]);
        t.planar = t.planar && ik__code_planar(code[i]);
        if (code[i] & IK__CODE_ROTATED) {
            ik_mat3 m = ik_quat_to_mat3(chain->joints[i].origin.rot);
            int k, about = 3; // (about e_k: row and column k of the matrix are e_k exactly)
            for (r = 0; r < 3; r++)
                for (c = 0; c < 3; c++)
                    o[3 * r + c] = m.m[r][c];
            for (k = 0; k < 3 && IK__FAST; k++) { // (and the turn's cosine and sine where read)
                int a = (k + 1) % 3, b = (k + 2) % 3;
                if (m.m[k][k] == 1 && m.m[k][a] == 0 && m.m[k][b] == 0 && m.m[a][k] == 0 &&
                    m.m[b][k] == 0 && m.m[a][a] == m.m[b][b] && m.m[a][b] == -m.m[b][a])
                    about = k;
            }
            code[i] = (unsigned char)(code[i] + about * IK__CODE_ORIGIN);
            o += 9;
        }
    }
    if (t.planar) {
        t.memo = o;
        for (i = 0; i < chain->joint_count; i++)
            o[3 * i] = ik__nan(); // equal to no q
    }
    return t;
}

// a b for a row-major b (ik_mat3_mul's order of operations), inline: the frame stays in registers.
static inline IK__ALWAYS_INLINE ik_mat3 ik__mat3_mul_rows(const ik_mat3 *a, const ik_real *b)
{
    ik_mat3 m;
    m.m[0][0] = a->m[0][0] * b[0] + a->m[0][1] * b[3] + a->m[0][2] * b[6];
    m.m[0][1] = a->m[0][0] * b[1] + a->m[0][1] * b[4] + a->m[0][2] * b[7];
    m.m[0][2] = a->m[0][0] * b[2] + a->m[0][1] * b[5] + a->m[0][2] * b[8];
    m.m[1][0] = a->m[1][0] * b[0] + a->m[1][1] * b[3] + a->m[1][2] * b[6];
    m.m[1][1] = a->m[1][0] * b[1] + a->m[1][1] * b[4] + a->m[1][2] * b[7];
    m.m[1][2] = a->m[1][0] * b[2] + a->m[1][1] * b[5] + a->m[1][2] * b[8];
    m.m[2][0] = a->m[2][0] * b[0] + a->m[2][1] * b[3] + a->m[2][2] * b[6];
    m.m[2][1] = a->m[2][0] * b[1] + a->m[2][1] * b[4] + a->m[2][2] * b[7];
    m.m[2][2] = a->m[2][0] * b[2] + a->m[2][1] * b[5] + a->m[2][2] * b[8];
    return m;
}

// The axis sign e_k of frame r (its column k), then r <- r Rot(e_k, angle) if turn (c, signed s).
static inline ik_vec3 ik__mat3_axis_turn(ik_mat3 *r, int k, ik_real sign, bool turn, ik_real c,
                                         ik_real s)
{
    ik_vec3 w = ik_vec3_make(sign * r->m[0][k], sign * r->m[1][k], sign * r->m[2][k]);
    if (turn)
        ik__mat3_turn(r, k, c, s);
    return w;
}

// cos and sin of joints first .. first + n - 1's angles (q at first's values; 1, 0 if not
// revolute) in cs[2 k], cs[2 k + 1]; memo: a planar table's or NULL (docs/internals.md).
static inline void ik__joint_sincos(const ik_chain *chain, int first, int n, const ik_real *q,
                                    ik_real *memo, ik_real *cs)
{
    int k;
    for (k = 0; k < n && first + k < chain->joint_count; k++) {
        ik_joint_type type = chain->joints[first + k].type;
        bool revolute = type == IK_JOINT_REVOLUTE;
        ik_real *m = memo ? memo + 3 * (first + k) : NULL;
        if (m && revolute) {
            // (bits, not ==: -0 takes sin -0; a copy of q first: a store to m may alias it)
            if (memcmp(m, q, sizeof *q) != 0) {
                ik_real a = *q;
                m[0] = a, m[1] = IK_COS(a), m[2] = IK_SIN(a);
            }
            cs[2 * k] = m[1], cs[2 * k + 1] = m[2];
        } else {
            cs[2 * k] = revolute ? IK_COS(q[0]) : 1;
            cs[2 * k + 1] = revolute ? IK_SIN(q[0]) : 0;
        }
        q += ik_joint_type_dof(type);
    }
}

// A ball's kept values (ik__ball_axes()): its 3 values, its rotation (x, y, z, w), its exp-map
// Jacobian (row-major).
#define IK__BALL_KEPT 16

// A ball joint's three angular velocities at q after the frame rotation r as columns (identity
// without axes), and r <- r R(q) (docs/internals.md, "Ball joints"); with axes of an exponential
// map, q, R(q) and the map's Jacobian into keep (NULL: not kept). Inline: see there.
static inline IK__ALWAYS_INLINE ik_mat3 ik__ball_axes(ik_mat3 *r, const ik_real *q, bool euler,
                                                      bool axes, ik_real *keep)
{
    ik_mat3 jl = ik_mat3_identity(), rm;
    ik_quat rot = euler ? ik__ball_rotation(q, true)
                        : ik__expmap_rotation(ik_vec3_make(q[0], q[1], q[2]), axes ? &jl : NULL);
    if (axes && euler) {
        ik_quat ya = ik__quat_axis(1, q[0]);
        ik_quat yb = ik_quat_mul(ya, ik__quat_axis(0, q[1]));
        ik_vec3 c1 = ik_quat_rotate(ya, ik_vec3_make(1, 0, 0));
        ik_vec3 c2 = ik_quat_rotate(yb, ik_vec3_make(0, 0, 1));
        ik_mat3 columns = { { { 0, c1.x, c2.x }, { 1, c1.y, c2.y }, { 0, c1.z, c2.z } } };
        jl = columns;
    }
    if (keep && axes && !euler) { // (kept for the step's application: ik__ball_kept())
        memcpy(keep, q, 3 * sizeof *keep);
        keep[3] = rot.x, keep[4] = rot.y, keep[5] = rot.z, keep[6] = rot.w;
        memcpy(keep + 7, &jl.m[0][0], 9 * sizeof *keep);
    }
    if (axes)
        jl = ik__mat3_mul_rows(r, &jl.m[0][0]);
    rm = ik__quat_to_mat3_unit(rot); // (the rotation is unit by construction: no normalization)
    *r = ik__mat3_mul_rows(r, &rm.m[0][0]);
    return jl;
}

// A ball's values kept by ik__ball_axes() (kept NULL: none) if they were kept at these values v,
// else NULL.
static const ik_real *ik__ball_kept(const ik_real *kept, const ik_real *v)
{
    return kept && kept[0] == v[0] && kept[1] == v[1] && kept[2] == v[2] ? kept : NULL;
}

// The effector's rotation for a frame r after the last joint: r times the tip's rotation.
static ik_quat ik__effector_rotation(const ik_chain *chain, const ik_mat3 *r)
{
    ik_mat3 f = *r;
    if (ik__quat_turns(chain->tip.rot))
        f = ik_mat3_mul(f, ik_quat_to_mat3(chain->tip.rot));
    return ik__quat_from_mat3(&f);
}

// ik__jacobian() for a planar table, rows 6 or none (docs/internals.md, "Planar chains").
static ik_xform ik__jacobian_planar(const ik_chain *chain, const ik__joint_table *table,
                                    const ik_real *q, int dof, ik_real *jac, ik_real ow,
                                    ik_mat3 *out_rot)
{
    ik_real cs[2 * 16], cc = 1, ss = 0, x;
    ik_vec3 p = ik_vec3_zero(), o;
    ik_xform effector;
    ik_mat3 f = ik_mat3_identity();
    int i, col = 0, first, last;
    for (first = 0; first < chain->joint_count; first += 16) {
        last = first + 16 < chain->joint_count ? first + 16 : chain->joint_count;
        ik__joint_sincos(chain, first, 16, q + col, table->memo, cs);
        for (i = first; i < last; i++) {
            ik_real c = cs[2 * (i - first)], s = cs[2 * (i - first) + 1], sign = 1;
            o = chain->joints[i].origin.pos;
            p.x = p.x + (cc * o.x - ss * o.y);
            p.y = p.y + (ss * o.x + cc * o.y);
            p.z = p.z + o.z;
            if (chain->joints[i].type == IK_JOINT_FIXED)
                continue;
            if (table->code[i] & IK__CODE_NEG)
                sign = -1, s = -s;
            x = c * cc - s * ss;
            ss = c * ss + s * cc;
            cc = x;
            if (jac) // (p and the sign until pe is known)
                jac[col] = p.x, jac[dof + col] = p.y, jac[5 * dof + col] = sign;
            col++;
        }
    }
    IK_ASSERT(col == dof);
    o = chain->tip.pos;
    effector.pos =
        ik_vec3_make(p.x + (cc * o.x - ss * o.y), p.y + (ss * o.x + cc * o.y), p.z + o.z);
    effector.rot = ik_quat_identity(); // (ow = 0: not wanted)
    if (ow > 0) {
        f.m[0][0] = cc, f.m[0][1] = -ss, f.m[1][0] = ss, f.m[1][1] = cc;
        if (out_rot)
            *out_rot = f;
        else
            effector.rot = ik__effector_rotation(chain, &f);
    }
    for (col = 0; col < dof && jac; col++) {
        ik_real px = jac[col], py = jac[dof + col], sign = jac[5 * dof + col];
        jac[col] = py * sign - sign * effector.pos.y;
        jac[dof + col] = sign * effector.pos.x - px * sign;
        jac[2 * dof + col] = jac[3 * dof + col] = jac[4 * dof + col] = 0;
        jac[5 * dof + col] = ow > 0 && ow != 1 ? sign * ow : sign;
    }
    return effector;
}

// The pass's frame r times joint j's origin rotation: from the table's matrix (origin, returned
// advanced past it; about a coordinate axis, a turn), or from the joint (origin NULL: no table).
static inline IK__ALWAYS_INLINE const ik_real *ik__pass_origin(ik_mat3 *r, const ik_joint *j,
                                                               int code, const ik_real *origin)
{
    ik_mat3 o;
    if (!origin) {
        o = ik_quat_to_mat3(j->origin.rot);
        *r = ik__mat3_mul_rows(r, &o.m[0][0]);
        return NULL;
    }
    switch (code / IK__CODE_ORIGIN) {
    case 0: ik__mat3_turn(r, 0, origin[4], origin[7]); break;
    case 1: ik__mat3_turn(r, 1, origin[8], origin[2]); break;
    case 2: ik__mat3_turn(r, 2, origin[0], origin[3]); break;
    default: *r = ik__mat3_mul_rows(r, origin); break;
    }
    return origin + 9;
}

// Joint j's axis in the root frame for frame r, and r turned by a revolute joint's (c, s).
static inline IK__ALWAYS_INLINE ik_vec3 ik__pass_axis(ik_mat3 *r, const ik_joint *j, int code,
                                                      ik_real c, ik_real s)
{
    const bool revolute = j->type == IK_JOINT_REVOLUTE;
    const ik_real sign = code & IK__CODE_NEG ? -1 : 1;
    ik_vec3 w;
    switch (code & IK__CODE_AXIS) {
    case 0: return ik__mat3_axis_turn(r, 0, sign, revolute, c, sign * s);
    case 1: return ik__mat3_axis_turn(r, 1, sign, revolute, c, sign * s);
    case 2: return ik__mat3_axis_turn(r, 2, sign, revolute, c, sign * s);
    default:
        w = ik_mat3_mul_vec3(*r, j->axis);
        if (revolute) {
            ik_mat3 t = ik__mat3_axis_angle(j->axis, c, s);
            *r = ik__mat3_mul_rows(r, &t.m[0][0]);
        }
        return w;
    }
}

// The 6-row Jacobian's columns [p x w; w] made [w x (pe - p); ow w] once pe is known.
static void ik__pass_deferred(ik_real *jac, int dof, ik_vec3 pe, ik_real ow)
{
    const int set = ow > 0 && ow != 1 ? 6 : 3; // (the rotation rows as they are otherwise)
    int col;
    for (col = 0; col < dof; col++) {
        ik_vec3 w = ik_vec3_make(jac[3 * dof + col], jac[4 * dof + col], jac[5 * dof + col]);
        ik_vec3 lin = ik_vec3_add(ik_vec3_make(jac[col], jac[dof + col], jac[2 * dof + col]),
                                  ik_vec3_cross(w, pe));
        ik__jacobian_set(jac, set, dof, col, lin, ik_vec3_scale(w, ow));
    }
}

// A skeleton's pass (ik__jacobian()): its parents, and where each joint's frame is kept for its
// children and effectors.
typedef struct ik__tree {
    const int *parents; // [joint_count]
    ik_real *frames; // [12 per joint] rotation (row-major) and origin; NULL: out_frames keep them
    ik_real *balls;  // [IK__BALL_KEPT per joint] the balls' values kept by ik__ball_axes(), or NULL
} ik__tree;

// The frame (r, p) that joint i hangs from in a tree pass (tree NULL: a chain's, the running one).
static inline void ik__tree_load(const ik__tree *tree, const ik_xform *out_frames, int i,
                                 ik_mat3 *r, ik_vec3 *p)
{
    const int parent = !tree || !tree->parents ? i - 1 : tree->parents[i];
    const ik_real *f;
    int k;
    if (!tree || (parent == i - 1 && i > 0))
        return;
    f = tree->frames && parent >= 0 ? tree->frames + 12 * parent : NULL;
    if (parent < 0) {
        *r = ik_mat3_identity(), *p = ik_vec3_zero();
    } else if (f) {
        for (k = 0; k < 3; k++) // (no memcpy: r stays out of memory)
            r->m[k][0] = f[3 * k], r->m[k][1] = f[3 * k + 1], r->m[k][2] = f[3 * k + 2];
        *p = ik_vec3_make(f[9], f[10], f[11]);
    } else {
        *r = ik_quat_to_mat3(out_frames[parent].rot), *p = out_frames[parent].pos;
    }
}

// Keeps joint i's frame (r, p) for a tree pass.
static inline void ik__tree_store(const ik__tree *tree, int i, const ik_mat3 *r, ik_vec3 p)
{
    ik_real *f = tree->frames ? tree->frames + 12 * i : NULL;
    int k;
    if (!f)
        return;
    for (k = 0; k < 3; k++) // (no memcpy: r stays out of memory)
        f[3 * k] = r->m[k][0], f[3 * k + 1] = r->m[k][1], f[3 * k + 2] = r->m[k][2];
    f[9] = p.x, f[10] = p.y, f[11] = p.z;
}

// Where a tree pass keeps ball joint i's values (ik__ball_axes()); NULL: not kept (a chain).
static inline ik_real *ik__tree_ball(const ik__tree *tree, int i)
{
    return tree && tree->balls ? tree->balls + IK__BALL_KEPT * i : NULL;
}

// Keeps joint i's frame (r, p) where a pass is asked to: tree->frames, out_frames (either NULL).
static inline void ik__pass_keep(const ik__tree *tree, ik_xform *out_frames, int i,
                                 const ik_mat3 *r, ik_vec3 p)
{
    if (tree)
        ik__tree_store(tree, i, r, p);
    if (out_frames) {
        ik_mat3 f = *r;
        out_frames[i] = ik_xform_make(ik__quat_from_mat3(&f), p);
    }
}

// Geometric Jacobian (rows 3 or 6, jac may be NULL) and FK of a validated chain and state in one
// pass (docs/internals.md, "The kinematics pass"). out_frames (may be NULL): each joint's frame;
// ow: the rotation rows' weight (0: no effector rotation wanted); table: may be NULL. tree (NULL:
// a chain): the joints' parents; jac (rows 6) gets the columns [p x w; w], tree->frames the
// frames, and the chain's tip is not used (docs/skeletons.md, "One kinematics pass").
static ik_xform ik__jacobian(const ik_chain *chain, const ik__joint_table *table, const ik_real *q,
                             int rows, int dof, ik_real *jac, bool euler, ik_real ow,
                             ik_xform *out_frames, ik_mat3 *out_rot, const ik__tree *tree);

// ik__jacobian()'s body: inlined twice, for trees and for chains (tree NULL: its steps compiled
// out).
static inline IK__ALWAYS_INLINE ik_xform ik__jacobian_pass(const ik_chain *chain,
                                                           const ik__joint_table *table,
                                                           const ik_real *q, int rows, int dof,
                                                           ik_real *jac, bool euler, ik_real ow,
                                                           ik_xform *out_frames, ik_mat3 *out_rot,
                                                           const ik__tree *tree)
{
    ik_mat3 r = ik_mat3_identity(), jl;
    ik_vec3 p = ik_vec3_zero(), pe = ik_vec3_zero(), w, lin;
    ik_real cs[2 * 16];
    const ik_real *origin = table ? table->origin : NULL; // (the next rotated origin's matrix)
    ik_xform effector;
    int i, k, col = 0, first, last;
    bool deferred = rows == 6;
    if (table && table->planar && (rows == 6 || !jac) && !out_frames && !tree)
        return ik__jacobian_planar(chain, table, q, dof, jac, ow, out_rot);
    if (jac && !deferred)
        pe = ik__jacobian(chain, table, q, 3, dof, NULL, euler, 0, NULL, NULL, NULL).pos;
    for (first = 0; first < chain->joint_count; first += 16) {
        last = first + 16 < chain->joint_count ? first + 16 : chain->joint_count;
        ik__joint_sincos(chain, first, 16, q + col, NULL, cs);
        for (i = first; i < last; i++) {
            const ik_joint *j = &chain->joints[i];
            const int code = table ? table->code[i] : ik__joint_code(j), slot = i - first;
            const bool revolute = j->type == IK_JOINT_REVOLUTE;
            ik__tree_load(tree, out_frames, i, &r, &p);
            p = ik_vec3_add(p, ik_mat3_mul_vec3(r, j->origin.pos));
            if (code & IK__CODE_ROTATED)
                origin = ik__pass_origin(&r, j, code, origin);
            if (j->type == IK_JOINT_BALL) {
                jl = ik__ball_axes(&r, q + col, euler, jac != NULL, ik__tree_ball(tree, i));
                for (k = 0; k < 3 && jac; k++) {
                    w = ik_vec3_make(jl.m[0][k], jl.m[1][k], jl.m[2][k]);
                    lin = deferred ? ik_vec3_cross(p, w) : ik_vec3_cross(w, ik_vec3_sub(pe, p));
                    ik__jacobian_set(jac, rows, dof, col + k, lin, w);
                }
                col += 3;
            } else if (j->type != IK_JOINT_FIXED) {
                w = ik__pass_axis(&r, j, code, cs[2 * slot], cs[2 * slot + 1]);
                if (!revolute) { // prismatic
                    p = ik_vec3_add_scaled(p, w, q[col]);
                    lin = w;
                    w = ik_vec3_zero();
                } else if (jac) {
                    lin = deferred ? ik_vec3_cross(p, w) : ik_vec3_cross(w, ik_vec3_sub(pe, p));
                }
                if (jac)
                    ik__jacobian_set(jac, rows, dof, col, lin, w);
                col++;
            }
            ik__pass_keep(tree, out_frames, i, &r, p);
        }
    }
    IK_ASSERT(col == dof);
    if (tree)
        return ik_xform_identity();
    effector.pos = ik_vec3_add(p, ik_mat3_mul_vec3(r, chain->tip.pos));
    effector.rot = ik_quat_identity(); // (ow = 0: not wanted)
    if (ow > 0) {
        ik_mat3 f = r; // (a copy: r itself stays in registers)
        if (out_rot)
            *out_rot = f;
        else
            effector.rot = ik__effector_rotation(chain, &f);
    }
    if (jac && deferred)
        ik__pass_deferred(jac, dof, effector.pos, ow);
    return effector;
}

static ik_xform ik__jacobian(const ik_chain *chain, const ik__joint_table *table, const ik_real *q,
                             int rows, int dof, ik_real *jac, bool euler, ik_real ow,
                             ik_xform *out_frames, ik_mat3 *out_rot, const ik__tree *tree)
{
    if (tree)
        return ik__jacobian_pass(chain, table, q, rows, dof, jac, euler, ow, out_frames, out_rot,
                                 tree);
    return ik__jacobian_pass(chain, table, q, rows, dof, jac, euler, ow, out_frames, out_rot, NULL);
}

// ik_chain_fk() (rows 6, no Jacobian wanted) and ik_chain_jacobian(): checks, pass, outputs.
static ik_result ik__chain_pass(const ik_chain *chain, const ik_real *q, bool want_jacobian,
                                int rows, ik_real *jac, ik_xform *out_frames,
                                ik_xform *out_effector)
{
    int dof;
    ik_xform effector;
    ik_result r = ik__chain_state_validate(chain, q, &dof);
    if (r != IK_OK)
        return r;
    if (want_jacobian && !jac)
        return IK_ERR_NULL_ARG;
    if (rows != 3 && rows != 6)
        return IK_ERR_BAD_ARG;
    effector = ik__jacobian(chain, NULL, q, rows, dof, jac, false, 1, out_frames, NULL, NULL);
    if (out_effector)
        *out_effector = effector;
    return IK_OK;
}

IKDEF ik_result ik_chain_fk(const ik_chain *chain, const ik_real *q, ik_xform *out_frames,
                            ik_xform *out_effector)
{
    return ik__chain_pass(chain, q, false, 6, NULL, out_frames, out_effector);
}

IKDEF ik_result ik_chain_jacobian(const ik_chain *chain, const ik_real *q, int rows,
                                  ik_real *out_jacobian, ik_xform *out_effector)
{
    return ik__chain_pass(chain, q, true, rows, out_jacobian, NULL, out_effector);
}

IKDEF ik_result ik_joint_from_urdf(ik_joint_type type, ik_vec3 xyz, ik_vec3 rpy, ik_vec3 axis,
                                   ik_real lo, ik_real hi, ik_joint *out_joint)
{
    ik_quat rot;
    if (!out_joint)
        return IK_ERR_NULL_ARG;
    if (type != IK_JOINT_FIXED && type != IK_JOINT_REVOLUTE && type != IK_JOINT_PRISMATIC)
        return IK_ERR_BAD_ARG;
    if (!ik__vec3_bounded(xyz) || !ik__vec3_bounded(rpy) || !ik__limits_valid(lo, hi))
        return IK_ERR_BAD_ARG;
    if (type != IK_JOINT_FIXED &&
        (!ik__vec3_bounded(axis) || ik_vec3_length2(ik_vec3_normalize(axis)) == 0))
        return IK_ERR_BAD_ARG;
    // URDF: R = Rz(yaw) Ry(pitch) Rx(roll), fixed-axis roll-pitch-yaw
    rot = ik_quat_mul(ik__quat_axis(2, rpy.z),
                      ik_quat_mul(ik__quat_axis(1, rpy.y), ik__quat_axis(0, rpy.x)));
    *out_joint = ik__joint(type, ik_xform_make(rot, xyz),
                           type == IK_JOINT_FIXED ? ik_vec3_make(0, 0, 1) : axis, lo, hi);
    return IK_OK;
}

// Rx(alpha) Tx(a): a DH row's transform along its x axis.
static ik_xform ik__xform_rx_tx(ik_real alpha, ik_real a)
{
    return ik_xform_make(ik__quat_axis(0, alpha), ik_vec3_make(a, 0, 0));
}

IKDEF ik_result ik_joints_from_dh(const ik_dh_row *rows, int count, ik_dh_convention convention,
                                  ik_joint *out_joints, ik_xform *out_tip)
{
    // joint i's origin: docs/conventions.md, "Denavit-Hartenberg"
    int i;
    ik_xform carry = ik_xform_identity();
    if (!rows || !out_joints || !out_tip)
        return IK_ERR_NULL_ARG;
    if (count < 1 || count > IK_MAX_JOINTS ||
        (convention != IK_DH_CLASSIC && convention != IK_DH_MODIFIED))
        return IK_ERR_BAD_ARG;
    for (i = 0; i < count; i++) {
        const ik_dh_row *r = &rows[i];
        if (r->type != IK_JOINT_FIXED && r->type != IK_JOINT_REVOLUTE &&
            r->type != IK_JOINT_PRISMATIC)
            return IK_ERR_BAD_ARG;
        if (!ik__bounded(r->a) || !ik__bounded(r->alpha) || !ik__bounded(r->d) ||
            !ik__bounded(r->theta) || !ik__limits_valid(r->lo, r->hi))
            return IK_ERR_BAD_ARG;
    }
    for (i = 0; i < count; i++) {
        const ik_dh_row *r = &rows[i];
        ik_xform rz = ik_xform_make(ik__quat_axis(2, r->theta), ik_vec3_zero());
        ik_xform tz = ik_xform_translation(ik_vec3_make(0, 0, r->d)), origin;
        if (convention == IK_DH_CLASSIC) {
            origin = ik_xform_mul(carry, rz);
            carry = ik_xform_mul(tz, ik__xform_rx_tx(r->alpha, r->a));
        } else {
            origin = ik_xform_mul(ik__xform_rx_tx(r->alpha, r->a), ik_xform_mul(rz, tz));
        }
        out_joints[i] = ik__joint(r->type, origin, ik_vec3_make(0, 0, 1), r->lo, r->hi);
    }
    *out_tip = carry;
    return IK_OK;
}

// ---- implementation: svd -----------------------------------------------------------------------

// One-sided Jacobi SVD (Hestenes 1958; Demmel and Veselic 1992): W <- W G until W's columns are
// orthogonal, W in the long-side output, G in the other (docs/internals.md, "The SVD").

// W (len x k) from a (m x n) scaled to max |a_ij| = 1, entries whose square underflows 0; G = I.
static ik_real ik__svd_load(const ik_real *a, int m, int n, ik_real *w, ik_real *g)
{
    const bool wide = m <= n;
    const int k = wide ? m : n, len = wide ? n : m;
    const ik_real tiny = 2 * IK_SQRT(IK__REAL_MIN);
    ik_real scale = 0;
    int i, t;
    for (i = 0; i < m * n; i++)
        scale = IK_FABS(a[i]) > scale ? IK_FABS(a[i]) : scale;
    for (t = 0; t < len; t++)
        for (i = 0; i < k; i++) {
            ik_real x = scale > 0 ? (wide ? a[i * n + t] : a[t * n + i]) / scale : 0;
            w[t * k + i] = IK_FABS(x) < tiny ? 0 : x;
        }
    for (i = 0; i < k; i++)
        for (t = 0; t < k; t++)
            g[i * k + t] = i == t ? 1 : 0;
    return scale;
}

// The dot product of columns i and j of w (len x k).
static inline ik_real ik__svd_dot(const ik_real *w, int len, int k, int i, int j)
{
    ik_real sum = 0;
    int t;
    for (t = 0; t < len; t++)
        sum += w[t * k + i] * w[t * k + j];
    return sum;
}

// x_i <- c x_i - s x_j, x_j <- s x_i + c x_j on the columns i and j of x (rows x k).
static inline void ik__svd_rotate(ik_real *x, int rows, int k, int i, int j, ik_real c, ik_real s)
{
    int t;
    for (t = 0; t < rows; t++) {
        ik_real xi = x[t * k + i], xj = x[t * k + j];
        x[t * k + i] = c * xi - s * xj;
        x[t * k + j] = s * xi + c * xj;
    }
}

// nrm2[] = W's columns' squared norms, those at rounding level set to 0; returns that level.
static ik_real ik__svd_norms(ik_real *w, ik_real *nrm2, int len, int k)
{
    ik_real big = 0, noise2;
    int i, t;
    for (i = 0; i < k; i++) {
        nrm2[i] = ik__svd_dot(w, len, k, i, i);
        big = nrm2[i] > big ? nrm2[i] : big;
    }
    noise2 = IK_EPSILON * IK_EPSILON * (ik_real)len * big;
    for (i = 0; i < k; i++)
        if (nrm2[i] <= noise2 && nrm2[i] > 0) {
            for (t = 0; t < len; t++)
                w[t * k + i] = 0;
            nrm2[i] = 0;
        }
    return noise2;
}

// One sweep rotating each pair of W's columns not yet orthogonal, none with a column at the
// rounding level noise2, nrm2[] kept up to date. Returns whether any pair was rotated.
static bool ik__svd_sweep(ik_real *w, ik_real *g, ik_real *nrm2, ik_real noise2, int len, int k)
{
    const ik_real tol = IK_EPSILON;
    bool rotated = false;
    int i, j, t;
    for (i = 0; i < k - 1; i++) {
        for (j = i + 1; j < k; j++) {
            ik_real alpha = nrm2[i], beta = nrm2[j], gamma = 0, zeta, tn, c;
            if (alpha <= noise2 || beta <= noise2)
                continue;
            for (t = 0; t < len; t++)
                gamma += w[t * k + i] * w[t * k + j];
            // orthogonal to rounding (sqrt(alpha) sqrt(beta): their product may underflow)
            if (gamma == 0 || IK_FABS(gamma) <= tol * IK_SQRT(alpha) * IK_SQRT(beta))
                continue;
            rotated = true;
            // the rotation zeroing gamma; for |zeta| > 1 / epsilon, t = 1 / (2 zeta) to rounding
            zeta = (beta - alpha) / (2 * gamma);
            tn = IK_FABS(zeta) > 1 / IK_EPSILON
                     ? 1 / (2 * zeta)
                     : (zeta >= 0 ? 1 : -1) / (IK_FABS(zeta) + IK_SQRT(1 + zeta * zeta));
            c = 1 / IK_SQRT(1 + tn * tn);
            ik__svd_rotate(w, len, k, i, j, c, c * tn);
            ik__svd_rotate(g, k, k, i, j, c, c * tn);
            nrm2[i] = alpha - tn * gamma;
            nrm2[j] = beta + tn * gamma;
        }
    }
    return rotated;
}

// Column i of W scaled to unit length (0 for a zero column); returns its norm.
static ik_real ik__svd_unit_column(ik_real *w, int len, int k, int i)
{
    ik_real len2 = ik__svd_dot(w, len, k, i, i), norm = IK_SQRT(len2);
    int t;
    for (t = 0; t < len; t++)
        w[t * k + i] = len2 > IK__TINY2 ? w[t * k + i] / norm : 0;
    return len2 > IK__TINY2 ? norm : 0;
}

// Swaps columns i and j of x (rows x k).
static void ik__svd_swap(ik_real *x, int rows, int k, int i, int j)
{
    int t;
    for (t = 0; t < rows; t++) {
        ik_real tmp = x[t * k + i];
        x[t * k + i] = x[t * k + j];
        x[t * k + j] = tmp;
    }
}

// Orthonormalizes column i of Q (len x k) against the columns before it, by Gram-Schmidt twice; a
// zero column becomes the e_r farthest from their span (docs/internals.md, "The SVD").
static void ik__svd_orthonormalize(ik_real *q, int len, int k, int i)
{
    int r, j, t, pass, best = 0;
    ik_real best_res2 = -1, len2;
    if (ik__svd_dot(q, len, k, i, i) == 0) {
        for (r = 0; r < len; r++) {
            ik_real res2 = 1;
            for (j = 0; j < i; j++)
                res2 -= q[r * k + j] * q[r * k + j];
            if (res2 > best_res2) {
                best_res2 = res2;
                best = r;
            }
        }
        for (t = 0; t < len; t++)
            q[t * k + i] = t == best ? 1 : 0;
    }
    for (pass = 0; pass < 2; pass++)
        for (j = 0; j < i; j++) {
            ik_real d = ik__svd_dot(q, len, k, j, i);
            for (t = 0; t < len; t++)
                q[t * k + i] -= d * q[t * k + j];
        }
    len2 = ik__svd_dot(q, len, k, i, i);
    IK_ASSERT(len2 > 0); // some e_r has residual^2 >= 1 / len
    for (t = 0; t < len; t++)
        q[t * k + i] /= IK_SQRT(len2);
}

// Returns the number of sweeps it took (for the tests).
static int ik__svd(const ik_real *a, int m, int n, ik_real *u, ik_real *s, ik_real *v)
{
    const bool wide = m <= n;
    const int k = wide ? m : n, len = wide ? n : m;
    ik_real *w = wide ? v : u, *g = wide ? u : v;
    ik_real scale = ik__svd_load(a, m, n, w, g);
    int i, j, sweep = 0;
    // converges quadratically: a handful of sweeps; the bound only guards
    while (sweep < 60 && ik__svd_sweep(w, g, s, ik__svd_norms(w, s, len, k), len, k))
        sweep++;
    ik__svd_norms(w, s, len, k);
    for (i = 0; i < k; i++)
        s[i] = ik__svd_unit_column(w, len, k, i) * scale;
    // sorted descending (selection sort: k is small), then Q orthonormal in that order
    for (i = 0; i < k - 1; i++) {
        int best = i;
        for (j = i + 1; j < k; j++)
            best = s[j] > s[best] ? j : best;
        if (best != i) {
            ik__svd_swap(s, 1, k, i, best); // (s as a 1 x k matrix)
            ik__svd_swap(w, len, k, i, best);
            ik__svd_swap(g, k, k, i, best);
        }
    }
    for (i = 0; i < k; i++)
        ik__svd_orthonormalize(w, len, k, i);
    return sweep;
}

// true if the n bytes at p and the m bytes at s share a byte, or (m = 0) s lies inside p's;
// false for n = 0 (p may then be NULL). Compared as integers: C orders pointers of one object only.
static inline bool ik__overlap(const void *p, size_t n, const void *s, size_t m)
{
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)s;
    return n > 0 && a < b + m && b < a + n;
}

// Checks an m x n matrix argument.
static ik_result ik__matrix_validate(const ik_real *a, int m, int n)
{
    int i;
    if (!a)
        return IK_ERR_NULL_ARG;
    if (m < 1 || n < 1 || m > IK_MAX_JOINTS * 64 || n > IK_MAX_JOINTS * 64 ||
        (long)m * (long)n > (long)IK_MAX_JOINTS * 64)
        return IK_ERR_BAD_ARG;
    for (i = 0; i < m * n; i++)
        if (!ik__bounded(a[i]))
            return IK_ERR_BAD_ARG;
    return IK_OK;
}

IKDEF ik_result ik_svd(const ik_real *a, int m, int n, ik_real *out_u, ik_real *out_s,
                       ik_real *out_v)
{
    size_t k, nu, ns, nv, na;
    ik_result r = ik__matrix_validate(a, m, n);
    if (r != IK_OK)
        return r;
    if (!out_u || !out_s || !out_v)
        return IK_ERR_NULL_ARG;
    k = (size_t)(m < n ? m : n);
    nu = (size_t)m * k * sizeof(ik_real);
    ns = k * sizeof(ik_real);
    nv = (size_t)n * k * sizeof(ik_real);
    na = (size_t)m * (size_t)n * sizeof(ik_real);
    if (ik__overlap(out_u, nu, a, na) || ik__overlap(out_s, ns, a, na) ||
        ik__overlap(out_v, nv, a, na) || ik__overlap(out_u, nu, out_s, ns) ||
        ik__overlap(out_u, nu, out_v, nv) || ik__overlap(out_s, ns, out_v, nv))
        return IK_ERR_BAD_ARG;
    ik__svd(a, m, n, out_u, out_s, out_v);
    return IK_OK;
}

IKDEF size_t ik_svd_scratch_size(int m, int n)
{
    size_t k;
    if (m < 1 || n < 1 || (long)m * (long)n > (long)IK_MAX_JOINTS * 64)
        return 0;
    k = (size_t)(m < n ? m : n);
    // U, s, V, and room to align the start
    return ((size_t)m * k + k + (size_t)n * k + 1) * sizeof(ik_real);
}

// true if q [dof], rest [dof], info (both may be NULL), the chain or its joints overlap scratch.
static bool ik__solver_overlap(const ik_chain *chain, const ik_real *q, int dof,
                               const ik_real *rest, const ik_solve_info *info, const void *scratch,
                               size_t scratch_size)
{
    size_t reals = (size_t)dof * sizeof(ik_real);
    return ik__overlap(q, reals, scratch, scratch_size) ||
           ik__overlap(rest, rest ? reals : 0, scratch, scratch_size) ||
           ik__overlap(info, info ? sizeof *info : 0, scratch, scratch_size) ||
           ik__overlap(chain, sizeof *chain, scratch, scratch_size) ||
           ik__overlap(chain->joints, (size_t)chain->joint_count * sizeof(ik_joint), scratch,
                       scratch_size);
}

// A prepared chain's or skeleton's start is aligned for its pointers and its reals; its size is a
// multiple.
#define IK__PREPARED_ALIGN (sizeof(void *) > sizeof(ik_real) ? sizeof(void *) : sizeof(ik_real))
#define IK__PREPARED_ROUND(b)                                                                      \
    (((b) + IK__PREPARED_ALIGN - 1) / IK__PREPARED_ALIGN * IK__PREPARED_ALIGN)
#define IK__REALS_OF(b) (((b) + sizeof(ik_real) - 1) / sizeof(ik_real))

// Bytes from mem to the first address aligned for a prepared chain or skeleton.
static size_t ik__prepared_align_skip(const void *mem)
{
    return (IK__PREPARED_ALIGN - (size_t)(uintptr_t)mem % IK__PREPARED_ALIGN) % IK__PREPARED_ALIGN;
}

// The first ik_real-aligned address in scratch, if `count` reals fit there; NULL otherwise.
static ik_real *ik__scratch_reals(void *scratch, size_t scratch_size, size_t count)
{
    size_t skip = (sizeof(ik_real) - (size_t)scratch % sizeof(ik_real)) % sizeof(ik_real);
    if (!scratch || scratch_size < skip || (scratch_size - skip) / sizeof(ik_real) < count)
        return NULL;
    return (ik_real *)(void *)((char *)scratch + skip);
}

// A singular value s's factor in a pseudo-inverse: 1 / s above the cutoff (damping < 0), or
// s / (s^2 + damping^2) without squares (docs/internals.md, "The SVD"); 0 for s = 0.
static ik_real ik__pinv_factor(ik_real s, ik_real cutoff, ik_real damping)
{
    ik_real t;
    if (!(s > 0))
        return 0;
    // (Inf where the factor overflows, tested first: no FE_OVERFLOW)
    if (damping < 0)
        return s <= cutoff ? 0 : (s >= 2 / IK__REAL_MAX ? 1 / s : IK_INFINITY);
    if (s >= damping) {
        t = damping / s;
        return s >= 2 / IK__REAL_MAX ? 1 / s / (1 + t * t) : IK_INFINITY;
    }
    t = s / damping;
    return damping >= 1 || t <= damping * (IK__REAL_MAX / 2) ? t / damping / (1 + t * t)
                                                             : IK_INFINITY;
}

// out (n x m) = V diag(f(s)) U^T, f from ik__pinv_factor. Returns false, writing nothing, if an
// entry could overflow (|entry| <= k max f, since U's and V's entries are at most 1 in size).
static bool ik__pinv_from_svd(const ik_real *u, const ik_real *s, const ik_real *v, int m, int n,
                              ik_real cutoff, ik_real damping, ik_real *out)
{
    int k = m < n ? m : n, r, c, i;
    for (i = 0; i < k; i++)
        if (!(ik__pinv_factor(s[i], cutoff, damping) <= IK__REAL_MAX / (ik_real)(2 * k)))
            return false;
    memset(out, 0, (size_t)n * (size_t)m * sizeof *out);
    for (i = 0; i < k; i++) {
        ik_real f = ik__pinv_factor(s[i], cutoff, damping);
        if (f == 0)
            continue;
        for (r = 0; r < n; r++) {
            ik_real vf = v[r * k + i] * f;
            for (c = 0; c < m; c++)
                out[r * m + c] += vf * u[c * k + i];
        }
    }
    return true;
}

// Shared by both pseudo-inverses: validate, decompose in scratch, then write out.
static ik_result ik__pinv(const ik_real *a, int m, int n, ik_real rcond, ik_real damping,
                          ik_real *out, void *scratch, size_t scratch_size)
{
    size_t k;
    ik_real *u, *s, *v;
    ik_result r = ik__matrix_validate(a, m, n);
    if (r != IK_OK)
        return r;
    if (!out || !scratch)
        return IK_ERR_NULL_ARG;
    if (ik__overlap(a, (size_t)m * (size_t)n * sizeof(ik_real), scratch, scratch_size) ||
        ik__overlap(out, (size_t)m * (size_t)n * sizeof(ik_real), scratch, scratch_size))
        return IK_ERR_BAD_ARG;
    k = (size_t)(m < n ? m : n);
    u = ik__scratch_reals(scratch, scratch_size, (size_t)m * k + k + (size_t)n * k);
    if (!u || scratch_size < ik_svd_scratch_size(m, n))
        return IK_ERR_SCRATCH_TOO_SMALL;
    s = u + (size_t)m * k;
    v = s + k;
    ik__svd(a, m, n, u, s, v);
    // the pseudo-inverse of a matrix of subnormal size is not representable
    return ik__pinv_from_svd(u, s, v, m, n, rcond * s[0], damping, out) ? IK_OK : IK_ERR_NUMERIC;
}

IKDEF ik_result ik_svd_pinv(const ik_real *a, int m, int n, ik_real rcond, ik_real *out_pinv,
                            void *scratch, size_t scratch_size)
{
    if (!ik__finite(rcond) || !(rcond >= 0 && rcond < 1))
        return IK_ERR_BAD_ARG;
    return ik__pinv(a, m, n, rcond, -1, out_pinv, scratch, scratch_size);
}

IKDEF ik_result ik_svd_damped_pinv(const ik_real *a, int m, int n, ik_real damping,
                                   ik_real *out_pinv, void *scratch, size_t scratch_size)
{
    if (!ik__bounded(damping) || damping < 0)
        return IK_ERR_BAD_ARG;
    return ik__pinv(a, m, n, 0, damping, out_pinv, scratch, scratch_size);
}

// ---- implementation: solvers -------------------------------------------------------------------

IKDEF ik_target ik_target_position(ik_vec3 pos)
{
    ik_target t = { pos, ik_quat_identity(), false };
    return t;
}

IKDEF ik_target ik_target_pose(ik_xform pose)
{
    ik_target t = { pose.pos, pose.rot, true };
    return t;
}

// Checks a target; *out gets it with a unit rotation.
static ik_result ik__target_prepare(const ik_target *in, ik_target *out)
{
    if (!in)
        return IK_ERR_NULL_ARG;
    *out = *in;
    if (!ik__vec3_bounded(in->pos) || (in->use_rotation && !ik__quat_usable(in->rot)))
        return IK_ERR_BAD_ARG;
    out->rot = in->use_rotation ? ik_quat_normalize(in->rot) : ik_quat_identity();
    return IK_OK;
}

// The number of joints that move (at least 1).
static int ik__movable_joints(const ik_chain *chain)
{
    int i, n = 0;
    for (i = 0; i < chain->joint_count; i++)
        n += chain->joints[i].type != IK_JOINT_FIXED;
    return n > 0 ? n : 1;
}

// The length a solver measures its chain by (dampings, rounding floors, restarts): its reach, 1
// where that is 0 or infinite, at most 1e-3 IK__SQUARABLE (its squares must not overflow).
static ik_real ik__length_scale(ik_real reach)
{
    const ik_real most = IK__SQUARABLE * IK_R(1e-3);
    return ik__finite(reach) && reach > 0 ? (reach < most ? reach : most) : 1;
}

// The farthest the effector can be from the first joint: offsets plus prismatic extensions.
static ik_real ik__chain_reach(const ik_chain *chain)
{
    ik_real reach = ik_vec3_length(chain->tip.pos);
    int i;
    for (i = 0; i < chain->joint_count; i++) {
        const ik_joint *j = &chain->joints[i];
        if (i > 0)
            reach += ik_vec3_length(j->origin.pos);
        if (j->type == IK_JOINT_PRISMATIC) {
            ik_real ext = IK_FABS(j->lo) > IK_FABS(j->hi) ? IK_FABS(j->lo) : IK_FABS(j->hi);
            reach += ext; // infinite for an unlimited joint
        }
    }
    return reach;
}

// true if the target is farther from the first joint than the chain can reach.
static bool ik__beyond_reach(const ik_chain *chain, ik_vec3 target, ik_real reach, ik_real tol)
{
    return ik_vec3_length(ik_vec3_sub(target, chain->joints[0].origin.pos)) >
           reach * (1 + 64 * IK_EPSILON) + tol;
}

// The error a solver drives down: w_p |ps position error|^2 + w_o 8 sin^2(angle / 2) (the sum of
// |u_jd - u_jc|^2 over the frames' axes u_j); *pos_err and *rot_err get the distance and angle.
static ik_real ik__pose_error(const ik_target *t, ik_xform e, ik_real wp, ik_real ps, ik_real wo,
                              ik_real *pos_err, ik_real *rot_err)
{
    ik_real f, s2 = 0;
    *pos_err = ik_vec3_length(ik_vec3_sub(t->pos, e.pos));
    *rot_err = 0;
    f = wp * (*pos_err * ps) * (*pos_err * ps); // ps: lengths in units of ps^-1 (see CCD)
    if (t->use_rotation) {
        ik_quat d = ik_quat_mul(ik_quat_conjugate(t->rot), e.rot);
        s2 = (d.x * d.x + d.y * d.y + d.z * d.z) / ik_quat_dot(d, d);
        *rot_err = ik_vec3_length(ik__quat_log(ik__quat_unitize(d)));
    }
    return f + wo * 8 * s2;
}

// Horn's symmetric 4 x 4 matrix n of s, scaled to max |s| = 1 first (the sums of squares must not
// overflow); false, writing nothing, if s is zero (docs/internals.md, "Horn's rotation").
static bool ik__horn_matrix(ik_real s[3][3], ik_real n[4][4])
{
    ik_real big = 0;
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            big = IK_FABS(s[i][j]) > big ? IK_FABS(s[i][j]) : big;
    if (!(big > 0))
        return false;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            s[i][j] /= big;
    n[0][0] = s[0][0] + s[1][1] + s[2][2];
    n[1][1] = s[0][0] - s[1][1] - s[2][2];
    n[2][2] = -s[0][0] + s[1][1] - s[2][2];
    n[3][3] = -s[0][0] - s[1][1] + s[2][2];
    n[0][1] = n[1][0] = s[1][2] - s[2][1];
    n[0][2] = n[2][0] = s[2][0] - s[0][2];
    n[0][3] = n[3][0] = s[0][1] - s[1][0];
    n[1][2] = n[2][1] = s[0][1] + s[1][0];
    n[1][3] = n[3][1] = s[2][0] + s[0][2];
    n[2][3] = n[3][2] = s[1][2] + s[2][1];
    return true;
}

// The unit quaternion of the R maximizing sum_k w_k d_k . R v_k, s[a][b] = sum_k w_k v_k[a] d_k[b]
// (Horn 1987): N's top eigenvector, by Jacobi rotations (docs/internals.md, "Horn's rotation").
static ik_quat ik__horn_rotation(ik_real s[3][3])
{
    ik_real n[4][4];
    ik_real v[4][4] = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } };
    int i, j, k, p, sweep, best = 0;
    if (!ik__horn_matrix(s, n))
        return ik_quat_identity();
    for (sweep = 0; sweep < 50; sweep++) {
        ik_real off = 0, diag = 0;
        for (i = 0; i < 4; i++)
            for (j = 0; j < 4; j++)
                if (i != j)
                    off += n[i][j] * n[i][j];
                else
                    diag += n[i][j] * n[i][j];
        if (off <= IK_EPSILON * IK_EPSILON * diag || off == 0)
            break;
        for (p = 0; p < 3; p++) {
            for (k = p + 1; k < 4; k++) {
                ik_real theta, t, c, sn, tau, d = n[k][k] - n[p][p];
                if (n[p][k] == 0)
                    continue;
                // the symmetric Jacobi rotation zeroing n[p][k] (t = 1 / (2 theta) for huge theta)
                if (IK_FABS(d) * (IK_EPSILON * IK_EPSILON) < 2 * IK_FABS(n[p][k])) {
                    theta = d / (2 * n[p][k]);
                    t = (theta >= 0 ? 1 : -1) / (IK_FABS(theta) + IK_SQRT(theta * theta + 1));
                } else {
                    t = n[p][k] / d;
                }
                c = 1 / IK_SQRT(t * t + 1);
                sn = t * c;
                tau = sn / (1 + c);
                n[p][p] -= t * n[p][k];
                n[k][k] += t * n[p][k];
                n[p][k] = n[k][p] = 0;
                for (i = 0; i < 4; i++) {
                    ik_real a, b;
                    if (i != p && i != k) {
                        a = n[i][p];
                        b = n[i][k];
                        n[i][p] = n[p][i] = a - sn * (b + tau * a);
                        n[i][k] = n[k][i] = b + sn * (a - tau * b);
                    }
                    a = v[i][p];
                    b = v[i][k];
                    v[i][p] = a - sn * (b + tau * a);
                    v[i][k] = b + sn * (a - tau * b);
                }
            }
        }
    }
    for (i = 1; i < 4; i++)
        if (n[i][i] > n[best][best])
            best = i;
    return ik_quat_normalize(ik_quat_make(v[1][best], v[2][best], v[3][best], v[0][best]));
}

// ---- implementation: Jacobian solver -----------------------------------------------------------

// Each iteration steps by J dq ~ e (docs/jacobian.md: the methods, limits, normal equations).

#define IK__JACOBIAN_VALID 0x1cab1e
#ifdef IK_USE_FLOAT
#define IK__SOLVE_TOL IK_R(1e-5) // what float can reach on chains of a few units
#else
#define IK__SOLVE_TOL IK_R(1e-9)
#endif

IKDEF ik_jacobian_opts ik_default_jacobian_opts(void)
{
    ik_jacobian_opts o;
    o.method = IK_JACOBIAN_DLS;
    o.ball_param = IK_BALL_EXPMAP;
    o.max_iterations = 100;
    o.tolerance = IK__SOLVE_TOL;
    o.rotation_tolerance = IK__SOLVE_TOL;
    o.orientation_weight = 0;
    o.damping = 0;
    o.rcond = IK_R(1e-9);
    o.max_step = IK_INFINITY;
    o.max_joint_step = IK_PI / 4;
    o.rest = NULL;
    o.rest_gain = IK_R(0.1);
    o.min_improvement = IK_R(1e-12);
    o._valid = IK__JACOBIAN_VALID;
    return o;
}

// A target as the iterations use it: rot = G T^T (G the target's rotation, T the tip's).
typedef struct ik__goal {
    ik_vec3 pos;
    ik_mat3 rot; // G T^T (not read for a position target)
    bool use_rotation;
} ik__goal;

// The convergence and stall bookkeeping of ik__iterate(): the error at the state, and its trend.
typedef struct ik__progress {
    ik_real err, *e0;         // |e|^2 and the task error (position, weighted rotation vector)
    ik_real best_err;         // the least err so far (from the last nudge on)
    ik_real pos_err, rot_err; // of e0: the distance and the angle
    int idle;                 // iterations in a row without min_improvement
} ik__progress;

// What ik_jacobian_solve() and ik_arm_solve() do differently (docs/jacobian.md, the policies).
typedef struct ik__policy {
    bool lm_damping;    // the arm's damping on the normal equations; else the method's step
    bool fresh_pins;    // every iteration starts with all joints free; else pins are carried
    bool planar;        // a planar chain's exact two-joint step first (ik__planar_step())
    int halvings;       // most step halvings per iteration
    bool halve_on;      // halvings go on however small the step (above the rounding floor);
                        // else they end when the step moves no joint by an epsilon of it
    int max_kicks;      // most nudges out of a symmetric stall (ik__jacobian_stuck())
    int probe_it;       // the iteration (-1: none) at which a run still far is abandoned:
    ik_real probe_cost; // position error plus lw times rotation error above this
    ik_real lw;         // metres per radian in that cost
    bool save_steps;    // costly full steps (a skeleton's task of more rows than a chain's): chord
                        // steps (ik__chord_ready())
} ik__policy;

// One effector of a skeleton solve as the iterations use it: its rows, frame and blended goal.
typedef struct ik__effector_goal {
    int joint, kind, priority;
    int row, pos_rows, rot_rows; // its first task row; 3 or 0 position rows; 3, 2 or 0 rotation
    int cols_at, col_count;      // its columns (its joint's and ancestors'): goal_cols[cols_at..]
    ik_xform offset;             // joint frame -> effector frame
    ik_vec3 axis;                // AIM, DIRECTION, FREE_AXIS: in the effector frame
    ik_vec3 pos;                 // the target position, or the point looked at
    ik_vec3 dir;                 // DIRECTION, FREE_AXIS: the axis's goal (unit)
    ik_mat3 rot;                 // POSE: G O^T (G the goal rotation, O the offset's)
    ik_real pw, rw;              // the position rows' weight, the rotation rows' (ow included)
} ik__effector_goal;

// Work arrays ([dof]; jac, jac_trial, jw, v rows x dof; u rows x rows, s rows): the Jacobian at
// the state and at the trial, the weighted active copy, the SVD, the step, the state, the trial,
// pins, forced moves, per column sqrt(weight) and limits (infinite for balls).
typedef struct ik__jac_work {
    ik_real *jac, *jac_trial, *jw, *u, *s, *v, *dq, *q, *trial, *pinned, *forced, *sw, *lo, *hi;
    ik_real *frame;        // [6 dof] per limited ball near its boundary: its columns' M^-1, M
    ik_real *normal;       // [rows x rows] the normal equations' matrix (m x m or na x na; u's
                           // place: the SVD is taken where the normal equations are not)
    ik_real *factor;       // [rows x rows] its LDL^T factor (ik__ldlt())
    ik_real *damped;       // [rows x rows] the damped matrix's factor
    ik_real *e, *e1;       // [rows] the step's (clamped) error, the trial's error
    ik_real *rv;           // [rows] a row vector for one step's work
    int rows;              // the row bound the arrays are sized for (m <= rows)
    bool ball_limits;      // a limited ball joint (exponential maps): frames to make
    ik__joint_table table; // ik__joint_table_make()
    bool unit_weights;     // every sw is 1
    int pins;              // pinned columns (0: with unit_weights W = I, no weighing to do)
    int frozen;            // columns of weight 0 (never pinned: they do not move)
    int released;          // pins freed in this iteration (ik__pins_release())
    ik_real *y;            // [rows] the step's dual (has_y): the weighted step is Jw^T y
    bool has_y;
    ik_real jac_bound; // at least every |J_rc| sqrt(w_c) (infinite: unknown)
    // the solve (ik_jacobian_solve): its problem, and the iterations' state
    const ik_chain *chain;
    const ik_jacobian_opts *o;
    ik__goal goal;
    int dof, m;        // unknowns, task rows (a chain's: 3 or 6)
    bool euler;        // ball joints in Euler angles (IK_BALL_EULER)
    int within_reach;  // the target is no farther than the chain reaches: 1 yes, 0 no, -1 not
                       // known yet (a skeleton's, made where asked: ik__reaches())
    ik_real scale, ow; // the chain's length (1 if 0 or infinite), the orientation weight
    ik_real floor2;    // |e|^2 at the rounding of the effector's coordinates
    ik__progress at;   // the error at q (jac: the Jacobian there)
    int kicks;         // nudges taken
    ik__policy policy; // ik__jacobian_policy, or the arm's
    ik_real *turn;     // [dof] 1: a revolute joint that turns whole turns; NULL: none
    // a skeleton's solve (goals NULL: a chain's); chain then points at tree_chain, its joints
    ik__effector_goal *goals; // [goal_count]
    int goal_count;
    ik__tree tree;  // its parents (NULL: a chain) and the pass's frames
    ik_real *cols;  // [6 dof] the pass's columns [p x w; w]
    int first_rows; // rows of priority 0 when priority 1 has rows too (they come first), else 0
    ik_real *proj;  // [3 rows x rows] the priorities' matrices (ik__priority_projector())
    ik_real *dq1;   // [dof] priority 0's step
    const int *goal_cols; // [goal_count x dof] each goal's columns, ascending
    ik_real *packed;   // [rows x dof] each effector's rows on its own columns (ik__skeleton_pack())
    ik_real *packed_w; // [rows x dof] the same, times the columns' weights
    bool by_goals;     // jac's rows are the goals' (not projected): ik__skeleton_normal() applies
    int full_rows;     // > 0: proj holds J W J^T of this many rows for this step (made already)
    bool a1_unshifted; // proj's factor of A1 was made with no shift (the step's own: reused)
    bool normal_kept;  // proj's A is for this Jacobian (an active set's passes), its W in jw
    bool normal_unit;  // ... or W = I (ik__unweighted())
    bool y_in_rv;      // the step was by the normal equations, dq = W J^T y: y in rv
    bool n1_folded;    // priority 1's step is in N1's range already (ik__priority_step(): no N1)
    bool jac_stale;    // a skeleton's state accepted without its Jacobian (made if it steps again)
    ik_real *jac_full; // priority 1's step: the task's Jacobian (jac NULL: J2 N1 not made)
    // chord steps (docs/skeletons.md, "Chord steps"): the last step's factors, kept
    const ik_real *chord_factor; // the factor the last normal equations were solved with
    bool chord_first;            // priority 0's last step was by the normal equations
    bool chord_ready;            // the last full step can be applied again (ik__chord_ready())
    ik_chain tree_chain;
} ik__jac_work;

static bool ik__planar_step(const ik__jac_work *w, const ik_real *e);

// A chain's task rows at most (position and orientation).
#define IK__CHAIN_ROWS 6

// The work's reals for dof unknowns and at most `rows` task rows (ik__jacobian_layout()).
static size_t ik__jacobian_rows_reals(int dof, int rows, size_t table)
{
    const size_t r = (size_t)rows;
    return (size_t)dof * (r * 4 + 14) + 3 * r * r + 6 * r + table;
}

static size_t ik__jacobian_reals(int dof, size_t table)
{
    return ik__jacobian_rows_reals(dof, IK__CHAIN_ROWS, table);
}

// dst = src, m rows (3 and 6 copied in line).
static void ik__rows_copy(ik_real *dst, const ik_real *src, int m)
{
    if (IK__FAST && m == 6)
        memcpy(dst, src, 6 * sizeof(ik_real));
    else if (IK__FAST && m == 3)
        memcpy(dst, src, 3 * sizeof(ik_real));
    else
        memcpy(dst, src, (size_t)m * sizeof(ik_real));
}

IKDEF size_t ik_jacobian_scratch_size(const ik_chain *chain)
{
    int dof = ik_chain_dof(chain);
    if (dof < 0)
        return 0;
    return (ik__jacobian_reals(dof, ik__table_reals(chain)) + 1) * sizeof(ik_real);
}

// Entry (i, j) of G R^T: row i of g dot row j of r.
static inline IK__ALWAYS_INLINE ik_real ik__rows_dot(const ik_mat3 *g, int i, const ik_mat3 *r,
                                                     int j)
{
    return g->m[i][0] * r->m[j][0] + g->m[i][1] * r->m[j][1] + g->m[i][2] * r->m[j][2];
}

// log(G R^T): the rotation vector from R to G, angle in [0, pi] (docs/jacobian.md).
static inline IK__ALWAYS_INLINE ik_vec3 ik__rotation_log(const ik_mat3 *g, const ik_mat3 *r)
{
    ik_mat3 e;
    ik_vec3 v;
    ik_real c;
    int i, j;
    c = (ik__rows_dot(g, 0, r, 0) + ik__rows_dot(g, 1, r, 1) + ik__rows_dot(g, 2, r, 2) - 1) / 2;
    if (!(c >= IK_R(-0.5))) {
        for (i = 0; i < 3; i++)
            for (j = 0; j < 3; j++)
                e.m[i][j] = ik__rows_dot(g, i, r, j);
        return ik__quat_log(ik__quat_from_mat3(&e));
    }
    v = ik_vec3_make((ik__rows_dot(g, 2, r, 1) - ik__rows_dot(g, 1, r, 2)) / 2,
                     (ik__rows_dot(g, 0, r, 2) - ik__rows_dot(g, 2, r, 0)) / 2,
                     (ik__rows_dot(g, 1, r, 0) - ik__rows_dot(g, 0, r, 1)) / 2);
    return ik_vec3_scale(v, ik__atan2_per_sin(ik_vec3_length(v), c));
}

// Column c of an effector's rows: the map's rows (rows x 6; one[r] >= 0: row r's one nonzero
// weight) times [v; w], v = p x w + w x pe from the pass's columns [p x w; w] (cols, 6 x dof).
static inline IK__ALWAYS_INLINE void ik__effector_column(const ik_real *cols, int dof, int c,
                                                         ik_vec3 pe, const ik_real *map,
                                                         const int *one, int rows, ik_real *out)
{
    ik_vec3 w = ik_vec3_make(cols[3 * dof + c], cols[4 * dof + c], cols[5 * dof + c]);
    ik_vec3 v =
        ik_vec3_add(ik_vec3_make(cols[c], cols[dof + c], cols[2 * dof + c]), ik_vec3_cross(w, pe));
    const ik_real vw[6] = { v.x, v.y, v.z, w.x, w.y, w.z };
    int r;
    for (r = 0; r < rows; r++) {
        const ik_real *m = map + 6 * r;
        out[r * dof + c] = one[r] >= 0 ? m[one[r]] * vw[one[r]]
                                       : m[0] * v.x + m[1] * v.y + m[2] * v.z + m[3] * w.x +
                                             m[4] * w.y + m[5] * w.z;
    }
}

// ik__effector_column() on the columns list[0..count-1] for a map whose row r has its one nonzero
// d[r] at r (a position's or a pose's; rows 3 or 6): the same products (c, o: the rows' starts).
static inline IK__ALWAYS_INLINE void ik__effector_columns_diagonal(const ik_real *const *c,
                                                                   const int *list, int count,
                                                                   ik_vec3 pe, const ik_real *d,
                                                                   int rows, ik_real *const *o)
{
    int i;
    for (i = 0; i < count; i++) {
        const int k = list[i];
        ik_vec3 w = ik_vec3_make(c[3][k], c[4][k], c[5][k]);
        ik_vec3 v = ik_vec3_add(ik_vec3_make(c[0][k], c[1][k], c[2][k]), ik_vec3_cross(w, pe));
        o[0][k] = d[0] * v.x, o[1][k] = d[1] * v.y, o[2][k] = d[2] * v.z;
        if (rows == 6)
            o[3][k] = d[3] * w.x, o[4][k] = d[4] * w.y, o[5][k] = d[5] * w.z;
    }
}

// The nonzero entries of a map's row (6 reals).
static int ik__map_row_nonzeros(const ik_real *m)
{
    return (m[0] != 0) + (m[1] != 0) + (m[2] != 0) + (m[3] != 0) + (m[4] != 0) + (m[5] != 0);
}

// ik__effector_rows() on listed columns where a short form gives its products: a map diagonal
// (zero_off_diagonal and no 0 on it: a position's or a pose's), or two rows neither with one
// nonzero (an axis's); false (nothing written) for the others.
static bool ik__effector_rows_short(const int *list, int count, const ik_real *cols, int dof,
                                    ik_vec3 pe, const ik_real *map, bool zero_off_diagonal,
                                    int rows, ik_real *out)
{
    const ik_real *from[6]; // (the rows' starts: one index a column)
    ik_real *to[6], d[6];
    int i, r;
    bool diagonal = IK__FAST && zero_off_diagonal && (rows == 3 || rows == 6);
    for (r = 0; r < 6; r++)
        from[r] = cols + r * dof, to[r] = out + (r < rows ? r : 0) * dof;
    for (r = 0; r < rows && diagonal; r++)
        d[r] = map[7 * r], diagonal = d[r] != 0;
    if (diagonal && rows == 6)
        ik__effector_columns_diagonal(from, list, count, pe, d, 6, to);
    else if (diagonal)
        ik__effector_columns_diagonal(from, list, count, pe, d, 3, to);
    if (diagonal || !IK__FAST || rows != 2 || ik__map_row_nonzeros(map) == 1 ||
        ik__map_row_nonzeros(map + 6) == 1)
        return diagonal;
    for (i = 0; i < count; i++) {
        const int k = list[i];
        ik_vec3 w = ik_vec3_make(from[3][k], from[4][k], from[5][k]);
        ik_vec3 v =
            ik_vec3_add(ik_vec3_make(from[0][k], from[1][k], from[2][k]), ik_vec3_cross(w, pe));
        to[0][k] =
            map[0] * v.x + map[1] * v.y + map[2] * v.z + map[3] * w.x + map[4] * w.y + map[5] * w.z;
        to[1][k] = map[6] * v.x + map[7] * v.y + map[8] * v.z + map[9] * w.x + map[10] * w.y +
                   map[11] * w.z;
    }
    return true;
}

// The rows (map: rows x 6 reals) times each column [v; w] of the frame at pe for the columns of
// joint and its ancestors (list: those columns, count of them, out's other columns 0 already;
// NULL: found by the parents, the other columns set to 0). out: rows x dof, may be cols
// (docs/skeletons.md, "One kinematics pass"). zero_off_diagonal: the map's other entries are 0.
static void ik__effector_rows(const ik_chain *chain, const int *parents, int joint, const int *list,
                              int count, const ik_real *cols, int dof, ik_vec3 pe,
                              const ik_real *map, bool zero_off_diagonal, int rows, ik_real *out)
{
    int i, c, r, next = joint, col = 0, one[6];
    if (list &&
        ik__effector_rows_short(list, count, cols, dof, pe, map, zero_off_diagonal, rows, out))
        return;
    for (r = 0; r < rows; r++) { // (the map's rows with one nonzero: which)
        int nonzero = 0;
        one[r] = -1;
        for (c = 0; c < 6; c++)
            if (map[6 * r + c] != 0)
                one[r] = c, nonzero++;
        one[r] = nonzero == 1 ? one[r] : -1;
    }
    if (list) {
        for (i = 0; i < count; i++)
            ik__effector_column(cols, dof, list[i], pe, map, one, rows, out);
        return;
    }
    for (i = 0; i <= joint; i++)
        col += ik_joint_type_dof(chain->joints[i].type);
    for (r = 0; r < rows; r++) // (the columns after joint's)
        memset(out + r * dof + col, 0, (size_t)(dof - col) * sizeof *out);
    for (i = joint; i >= 0; i--) { // (joint's ancestors by decreasing index, the others 0)
        const int nd = ik_joint_type_dof(chain->joints[i].type);
        col -= nd;
        for (r = 0; r < rows && i != next && nd > 0; r++)
            memset(out + r * dof + col, 0, (size_t)nd * sizeof *out);
        for (c = col; c < col + nd && i == next; c++)
            ik__effector_column(cols, dof, c, pe, map, one, rows, out);
        if (i == next)
            next = parents ? parents[i] : i - 1;
    }
}

// The rotation vector that turns unit a onto unit d, angle in [0, pi] (a half turn: about b).
static ik_vec3 ik__axis_turn(ik_vec3 a, ik_vec3 d, ik_vec3 b)
{
    ik_vec3 x = ik_vec3_cross(a, d);
    ik_real s = ik_vec3_length(x), c = ik_vec3_dot(a, d);
    if (s == 0)
        return c < 0 ? ik_vec3_scale(b, IK_PI) : ik_vec3_zero();
    return ik_vec3_scale(x, ik__atan2_per_sin(s, c));
}

// An effector's axis rows for its axis a (root frame) at its point pe: the turn from a to its goal
// in two rows across a, and their map (the angular rows, plus for an aim the point's turn as pe
// moves; an aim nearer its point than `near` has no direction: no error).
static ik_real ik__goal_axis_rows(const ik__effector_goal *g, ik_vec3 a, ik_vec3 pe, ik_real near,
                                  ik_real *e, ik_real *map)
{
    ik_vec3 d = g->dir, b[2], turn, lever = ik_vec3_zero();
    ik_real len = 0;
    int k;
    if (g->kind == IK_EFFECTOR_AIM) {
        d = ik_vec3_sub(g->pos, pe);
        len = ik_vec3_length(d);
        len = len > near ? len : 0;
        d = len > 0 ? ik_vec3_scale(d, 1 / len) : a;
    }
    b[0] = ik_vec3_any_perpendicular(a);
    b[1] = ik_vec3_cross(a, b[0]);
    turn = ik__axis_turn(a, d, b[0]);
    for (k = 0; k < 2; k++) {
        if (len > 0)
            lever = ik_vec3_scale(ik_vec3_cross(b[k], d), 1 / len); // (b . (d x v)) / len
        e[k] = g->rw * ik_vec3_dot(b[k], turn);
        map[6 * k] = g->rw * lever.x, map[6 * k + 1] = g->rw * lever.y;
        map[6 * k + 2] = g->rw * lever.z, map[6 * k + 3] = g->rw * b[k].x;
        map[6 * k + 4] = g->rw * b[k].y, map[6 * k + 5] = g->rw * b[k].z;
    }
    return e[0] * e[0] + e[1] * e[1];
}

// One effector's task rows e (and its rows of jac, NULL: none) from the pass's frames; |e|^2.
static ik_real ik__goal_rows(const ik__jac_work *w, const ik__effector_goal *g, ik_real *jac,
                             ik_real *e)
{
    const ik_real *f = w->tree.frames + 12 * g->joint;
    ik_mat3 r;
    ik_vec3 pe, dp, dr;
    ik_real map[6 * 6], err = 0, *rot_map = map + 6 * g->pos_rows;
    int k;
    memset(map, 0, (size_t)(6 * (g->pos_rows + g->rot_rows)) * sizeof *map); // (the rows read)
    memcpy(&r.m[0][0], f, 9 * sizeof *f);
    pe = ik_vec3_add(ik_vec3_make(f[9], f[10], f[11]), ik_mat3_mul_vec3(r, g->offset.pos));
    if (g->pos_rows) {
        dp = ik_vec3_scale(ik_vec3_sub(g->pos, pe), g->pw);
        e[0] = dp.x, e[1] = dp.y, e[2] = dp.z;
        map[0] = map[7] = map[14] = g->pw;
        err = ik_vec3_length2(dp);
    }
    if (g->rot_rows == 3) {
        dr = ik_vec3_scale(ik__rotation_log(&g->rot, &r), g->rw);
        e[g->pos_rows] = dr.x, e[g->pos_rows + 1] = dr.y, e[g->pos_rows + 2] = dr.z;
        for (k = 0; k < 3; k++)
            rot_map[6 * k + 3 + k] = g->rw;
        err += ik_vec3_length2(dr);
    } else if (g->rot_rows == 2) {
        ik_vec3 a = ik_mat3_mul_vec3(r, ik_mat3_mul_vec3(ik_quat_to_mat3(g->offset.rot), g->axis));
        err += ik__goal_axis_rows(g, a, pe, 16 * IK_EPSILON * w->scale, e + g->pos_rows, rot_map);
    }
    if (jac)
        ik__effector_rows(w->chain, w->tree.parents, g->joint, w->goal_cols + g->cols_at,
                          g->col_count, w->cols, w->dof, pe, map, g->rot_rows != 2,
                          g->pos_rows + g->rot_rows, jac);
    return err;
}

// A skeleton's task error e at q and its Jacobian jac (NULL: none), the effectors' rows stacked.
static ik_real ik__skeleton_error(const ik__jac_work *w, const ik_real *q, ik_real *jac, ik_real *e)
{
    ik_real err = 0;
    int k;
    ik__jacobian(w->chain, &w->table, q, 6, w->dof, jac ? w->cols : NULL, w->euler, 1, NULL, NULL,
                 &w->tree);
    for (k = 0; k < w->goal_count; k++) {
        const ik__effector_goal *g = &w->goals[k];
        ik_real ek = ik__goal_rows(w, g, jac ? jac + g->row * w->dof : NULL, e + g->row);
        if (g->row < w->m) // (a polish of priority 0 alone: its rows only)
            err += ek;
    }
    return err;
}

// The task error e at q and the Jacobian jac (NULL: none) from one kinematics pass; |e|^2.
static ik_real ik__task_error(const ik__jac_work *w, const ik_real *q, ik_real *jac, ik_real *e)
{
    const ik__goal *t = &w->goal;
    ik_vec3 dp, dr;
    ik_mat3 r;
    ik_xform eff;
    if (w->goals)
        return ik__skeleton_error(w, q, jac, e);
    eff = ik__jacobian(w->chain, &w->table, q, 6, w->dof, jac, w->euler,
                       t->use_rotation ? w->ow : 0, NULL, &r, NULL);
    dp = ik_vec3_sub(t->pos, eff.pos);
    e[0] = dp.x, e[1] = dp.y, e[2] = dp.z;
    if (!t->use_rotation)
        return ik_vec3_length2(dp);
    dr = ik_vec3_scale(ik__rotation_log(&t->rot, &r), w->ow);
    e[3] = dr.x, e[4] = dr.y, e[5] = dr.z;
    return ik_vec3_length2(dp) + ik_vec3_length2(dr);
}

// The rotation error (radians) of e: |e[3..5]| / ow, divided first (no overflow for a huge ow).
static ik_real ik__rotation_error(const ik_real *e, ik_real ow)
{
    ik_real x = e[3] / ow, y = e[4] / ow, z = e[5] / ow;
    return IK_SQRT(x * x + y * y + z * z);
}

// The length of n (2 or 3) rows of e divided by their weight (divided first: no overflow).
static ik_real ik__rows_length(const ik_real *e, int n, ik_real weight)
{
    ik_real x = e[0] / weight, y = e[1] / weight, z = n > 2 ? e[2] / weight : 0;
    return IK_SQRT(x * x + y * y + z * z);
}

// A skeleton effector's distance and angle from its goal for the task error e.
static void ik__goal_errors(const ik__effector_goal *g, const ik_real *e, ik_real *pos,
                            ik_real *rot)
{
    *pos = g->pos_rows ? ik__rows_length(e + g->row, 3, g->pw) : 0;
    *rot = g->rot_rows ? ik__rows_length(e + g->row + g->pos_rows, g->rot_rows, g->rw) : 0;
}

// The errors of w->at.e0 into w->at (a skeleton's: the largest); whether every effector is met.
static bool ik__progress_met(ik__jac_work *w)
{
    const ik_jacobian_opts *o = w->o;
    ik__progress *p = &w->at;
    const ik_real *e0 = p->e0;
    bool met = true;
    int k;
    if (!w->goals) {
        p->pos_err = IK_SQRT(e0[0] * e0[0] + e0[1] * e0[1] + e0[2] * e0[2]);
        p->rot_err = w->goal.use_rotation ? ik__rotation_error(e0, w->ow) : 0;
        return p->pos_err <= o->tolerance && p->rot_err <= o->rotation_tolerance;
    }
    p->pos_err = p->rot_err = 0;
    for (k = 0; k < w->goal_count; k++) {
        ik_real pos = 0, rot = 0;
        if (w->goals[k].row < w->m) // (a polish of priority 0 alone: its rows only)
            ik__goal_errors(&w->goals[k], e0, &pos, &rot);
        met = met && pos <= o->tolerance && rot <= o->rotation_tolerance;
        p->pos_err = pos > p->pos_err ? pos : p->pos_err;
        p->rot_err = rot > p->rot_err ? rot : p->rot_err;
    }
    return met;
}

// Whether iteration it stops the loop (*status): converged, stalled (5 idle iterations), max_it.
static bool ik__progress_stop(ik__jac_work *w, int it, int max_it, ik_status *status)
{
    const ik_jacobian_opts *o = w->o;
    ik__progress *p = &w->at;
    if (ik__progress_met(w)) {
        *status = IK_STATUS_CONVERGED;
        return true;
    }
    if (it > 0)
        p->idle = p->err < p->best_err * (1 - o->min_improvement) ? 0 : p->idle + 1;
    if (it == 0 || p->err < p->best_err)
        p->best_err = p->err;
    if (p->idle >= 5) {
        *status = IK_STATUS_STALLED;
        return true;
    }
    return it == max_it;
}

// Fixed-length loops (the 6 x 6 normal equations) fully unrolled: GCC and clang do not at -O2.
#if defined(__clang__)
#define IK__UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && __GNUC__ >= 8
#define IK__UNROLL _Pragma("GCC unroll 6")
#else
#define IK__UNROLL
#endif
// Inlined wherever called, so that each constant size is unrolled.
#define IK__SIZED static inline IK__ALWAYS_INLINE

// The normal equations' n x n matrices are stored row by row, n values a row.

// A = J diag(wa) J^T (wa NULL: weights 1) by blocks of 3 rows (A's rows lda values apart), per
// `weighted` its own copy.
IK__SIZED void ik__normal_block_n(const ik_real *r0, const ik_real *s0, const ik_real *wa, int dof,
                                  bool diagonal, ik_real *a, int at, const int lda,
                                  const bool weighted)
{
    const ik_real *r1 = r0 + dof, *r2 = r1 + dof, *s1 = s0 + dof, *s2 = s1 + dof;
    ik_real a00 = 0, a01 = 0, a02 = 0, a10 = 0, a11 = 0, a12 = 0, a20 = 0, a21 = 0, a22 = 0;
    int c;
    if (diagonal) {
        for (c = 0; c < dof; c++) {
            ik_real v0 = r0[c], v1 = r1[c], v2 = r2[c], wc = weighted ? wa[c] : 1;
            ik_real w0 = v0 * wc, w1 = v1 * wc, w2 = v2 * wc;
            a00 += w0 * v0, a10 += w1 * v0, a11 += w1 * v1;
            a20 += w2 * v0, a21 += w2 * v1, a22 += w2 * v2;
        }
        a01 = a10, a02 = a20, a12 = a21;
    } else {
        for (c = 0; c < dof; c++) {
            ik_real u0 = s0[c], u1 = s1[c], u2 = s2[c], wc = weighted ? wa[c] : 1;
            ik_real w0 = r0[c] * wc, w1 = r1[c] * wc, w2 = r2[c] * wc;
            a00 += w0 * u0, a01 += w0 * u1, a02 += w0 * u2;
            a10 += w1 * u0, a11 += w1 * u1, a12 += w1 * u2;
            a20 += w2 * u0, a21 += w2 * u1, a22 += w2 * u2;
        }
    }
    a[at] = a00, a[at + 1] = a01, a[at + 2] = a02;
    a[at + lda] = a10, a[at + lda + 1] = a11, a[at + lda + 2] = a12;
    a[at + 2 * lda] = a20, a[at + 2 * lda + 1] = a21, a[at + 2 * lda + 2] = a22;
}

static void ik__normal_block(const ik_real *r0, const ik_real *s0, const ik_real *wa, int dof,
                             bool diagonal, ik_real *a, int at, int lda)
{
    if (wa && lda == 6) // (6: the pose's rows, a constant)
        ik__normal_block_n(r0, s0, wa, dof, diagonal, a, at, 6, true);
    else if (wa)
        ik__normal_block_n(r0, s0, wa, dof, diagonal, a, at, lda, true);
    else if (lda == 6)
        ik__normal_block_n(r0, s0, wa, dof, diagonal, a, at, 6, false);
    else
        ik__normal_block_n(r0, s0, wa, dof, diagonal, a, at, lda, false);
}

// A = J diag(wa) J^T row by row, for a row count not a multiple of 3 (the same sums).
IK__NOINLINE static void ik__normal_matrix_rows(const ik_real *jac, const ik_real *wa, int m,
                                                int dof, ik_real *a)
{
    int r, s, c;
    for (r = 0; r < m; r++)
        for (s = 0; s <= r; s++) {
            ik_real sum = 0;
            for (c = 0; c < dof; c++)
                sum += jac[r * dof + c] * (wa ? wa[c] : 1) * jac[s * dof + c];
            a[r * m + s] = a[s * m + r] = sum;
        }
}

// A = J diag(wa) J^T (m x m): the lower blocks of 3 rows, then the upper triangle mirrored.
IK__NOINLINE static void ik__normal_matrix_any(const ik_real *jac, const ik_real *wa, int m,
                                               int dof, ik_real *a)
{
    int r, s;
    if (m % 3 != 0) {
        ik__normal_matrix_rows(jac, wa, m, dof, a);
        return;
    }
    for (r = 0; r < m; r += 3)
        for (s = 0; s <= r; s += 3)
            ik__normal_block(jac + r * dof, jac + s * dof, wa, dof, r == s, a, r * m + s, m);
    for (r = 3; r < m; r++) // (the diagonal blocks are symmetric already)
        for (s = 0; s < r - r % 3; s++)
            a[s * m + r] = a[r * m + s];
}

// ik__normal_matrix_any(), 3 and 6 rows by their blocks in line.
static void ik__normal_matrix(const ik_real *jac, const ik_real *wa, int m, int dof, ik_real *a)
{
    int r, s;
    if (!IK__FAST || (m != 3 && m != 6)) {
        ik__normal_matrix_any(jac, wa, m, dof, a);
        return;
    }
    ik__normal_block(jac, jac, wa, dof, true, a, 0, m);
    if (m == 3) // position only
        return;
    ik__normal_block(jac + 3 * dof, jac, wa, dof, false, a, 18, 6);
    ik__normal_block(jac + 3 * dof, jac + 3 * dof, wa, dof, true, a, 21, 6);
    for (r = 3; r < 6; r++)
        for (s = 0; s < 3; s++)
            a[s * 6 + r] = a[r * 6 + s];
}

// out = J^T y for m rows of jac (dof columns), the rows summed in groups of 3.
IK__NOINLINE static void ik__jacobian_tmul_rows(const ik_real *jac, const ik_real *y, int m,
                                                int dof, ik_real *out)
{
    int r, c;
    for (c = 0; c < dof; c++) {
        ik_real sum = 0;
        for (r = 0; r < m; r += 3) {
            ik_real g = jac[r * dof + c] * y[r];
            if (r + 1 < m)
                g += jac[(r + 1) * dof + c] * y[r + 1];
            if (r + 2 < m)
                g += jac[(r + 2) * dof + c] * y[r + 2];
            sum = r == 0 ? g : sum + g;
        }
        out[c] = sum;
    }
}

// out = J^T y for the first m rows of jac (dof columns); 3 or 6 rows with y held in registers.
static void ik__jacobian_tmul(const ik_real *jac, const ik_real *y, int m, int dof, ik_real *out)
{
    const ik_real *j0 = jac, *j1 = j0 + dof, *j2 = j1 + dof, *j3 = j2 + dof, *j4 = j3 + dof,
                  *j5 = j4 + dof;
    ik_real y0, y1, y2;
    int c;
    if (!IK__FAST || (m != 3 && m != 6)) {
        ik__jacobian_tmul_rows(jac, y, m, dof, out);
        return;
    }
    y0 = y[0], y1 = y[1], y2 = y[2];
    if (m == 6) {
        ik_real y3 = y[3], y4 = y[4], y5 = y[5];
        for (c = 0; c < dof; c++)
            out[c] =
                (j0[c] * y0 + j1[c] * y1 + j2[c] * y2) + (j3[c] * y3 + j4[c] * y4 + j5[c] * y5);
    } else
        for (c = 0; c < dof; c++)
            out[c] = j0[c] * y0 + j1[c] * y1 + j2[c] * y2;
}

// Rows i and i + 1 of ik__ldlt_rows() once row i's pivot is made, over k < i (i even): row i's
// L_ik = t_k / D_k, row lh's t_k against them (even and odd k summed apart, as ik__ldlt_n()'s)
// and its L_ik; returns row lh's t_i (a_hi its A entry). lh NULL (no row i + 1): row i's alone.
static ik_real ik__ldlt_pair_done(ik_real a_hi, ik_real *li, ik_real *lh, const ik_real *l, int n,
                                  int i)
{
    ik_real s = a_hi, odd = 0;
    int k;
    // (1 / D_k at l[k n + k]; the even k, then the odd, each value loaded alone as it was stored:
    // a pair loaded at once from two stores would wait for them to reach the cache)
    for (k = 0; k < i && lh; k += 2) {
        const ik_real dinv = l[k * (n + 1)], lik = li[k] * dinv, thk = lh[k];
        li[k] = lik;
        s -= thk * lik;
        lh[k] = thk * dinv;
    }
    for (k = 1; k < i && lh; k += 2) {
        const ik_real dinv = l[k * (n + 1)], lik = li[k] * dinv, thk = lh[k];
        li[k] = lik;
        odd -= thk * lik;
        lh[k] = thk * dinv;
    }
    for (k = 0; k < i && !lh; k++)
        li[k] *= l[k * (n + 1)];
    return s + odd;
}

// LDL^T of a + shift I (n = 3 or 6; a's rows lda apart): L and 1 / D_ii into l; false if a pivot
// is not positive.
IK__SIZED bool ik__ldlt_n(const ik_real *a, int lda, ik_real shift, ik_real *l, const int n)
{
    int i, j, k;
    IK__UNROLL
    for (i = 0; i < n; i++) {
        ik_real *li = l + i * n, t[6], d = a[i * lda + i] + shift;
        IK__UNROLL
        for (j = 0; j < i; j++) { // t_j = L_ij D_j
            const ik_real *lj = l + j * n;
            ik_real s = a[i * lda + j], odd = 0;
            IK__UNROLL
            for (k = 0; k + 1 < j; k += 2) // (even and odd k summed apart, then k = j - 1)
                s -= t[k] * lj[k], odd -= t[k + 1] * lj[k + 1];
            s += odd;
            if (j % 2 == 1)
                s -= t[j - 1] * lj[j - 1];
            t[j] = s;
            li[j] = s * lj[j];
            d -= (s * s) * lj[j]; // (not s li[j]: the pivot's chain one product shorter)
        }
        if (!(d > 0))
            return false;
        li[i] = 1 / d;
    }
    return true;
}

// ik__ldlt_n() for any n (the same sums), two rows at a time: their t_j = L_ij D_j for j below
// both, each row's kept in its own places until the row is done; each sum's even and odd k apart
// (two independent chains, each half as long).
IK__NOINLINE static bool ik__ldlt_rows(const ik_real *a, int lda, ik_real shift, ik_real *l, int n)
{
    ik_real t;
    int i, j, k;
    for (i = 0; i < n; i += 2) {
        const int h = i + 1 < n ? i + 1 : i; // (the second row; the last row alone: itself again)
        const ik_real *ai = a + i * lda, *ah = a + h * lda;
        ik_real *li = l + i * n, *lh = l + h * n, d = ai[i] + shift, dh = ah[h] + shift;
        for (j = 0; j < i; j += 2) { // (i is even: columns j and j + 1 together, k < j shared)
            const ik_real *lj = l + j * n, *lj1 = lj + n;
            ik_real s = ai[j], sh = ah[j], s1 = ai[j + 1], sh1 = ah[j + 1];
            ik_real odd = 0, odd_h = 0, odd1 = 0, odd_h1 = 0; // (the odd k's terms)
            for (k = 0; k < j; k += 2) {
                const ik_real i0 = li[k], i1 = li[k + 1], h0 = lh[k], h1 = lh[k + 1];
                s -= i0 * lj[k], odd -= i1 * lj[k + 1];
                sh -= h0 * lj[k], odd_h -= h1 * lj[k + 1];
                s1 -= i0 * lj1[k], odd1 -= i1 * lj1[k + 1];
                sh1 -= h0 * lj1[k], odd_h1 -= h1 * lj1[k + 1];
            }
            s += odd, sh += odd_h, s1 += odd1, sh1 += odd_h1;
            s1 -= s * lj1[j], sh1 -= sh * lj1[j]; // (k = j for column j + 1)
            li[j] = s, lh[j] = sh, li[j + 1] = s1, lh[j + 1] = sh1;
            d -= (s * s) * lj[j];
            dh -= (sh * sh) * lj[j];
            d -= (s1 * s1) * lj1[j + 1];
            dh -= (sh1 * sh1) * lj1[j + 1];
        }
        if (!(d > 0))
            return false;
        li[i] = 1 / d;
        t = ik__ldlt_pair_done(ah[i], li, h == i ? NULL : lh, l, n, i); // (rows i, h done)
        if (h == i)
            return true;
        lh[i] = t * li[i];
        dh -= (t * t) * li[i]; // (row h's pivot)
        if (!(dh > 0))
            return false;
        lh[h] = 1 / dh;
    }
    return true;
}

// ik__ldlt() of the n x n block of a whose rows are lda apart.
static bool ik__ldlt_lda(const ik_real *a, int lda, ik_real shift, int n, ik_real *l)
{
    if (IK__FAST && n == 6)
        return ik__ldlt_n(a, lda, shift, l, 6);
    if (IK__FAST && n == 3)
        return ik__ldlt_n(a, lda, shift, l, 3);
    return ik__ldlt_rows(a, lda, shift, l, n);
}

static bool ik__ldlt(const ik_real *a, ik_real shift, int n, ik_real *l)
{
    return ik__ldlt_lda(a, n, shift, n, l);
}

// x <- (L D L^T)^-1 x (n = 3 or 6 values) for a factor from ik__ldlt of the same n: L^-1 x with
// each sum's even and odd k apart (ik__ldlt_forward()'s pairs), then L^-T D^-1 x with k descending
// (x_i's sum takes x_(i + 1) last: it waits for it in its last term only).
IK__SIZED void ik__ldlt_solve_n(const ik_real *l, ik_real *x, const int n)
{
    int i, k;
    IK__UNROLL
    for (i = 0; i < n; i++) {
        ik_real s = x[i], odd = 0;
        IK__UNROLL
        for (k = 0; k + 1 < i; k += 2)
            s -= l[i * n + k] * x[k], odd -= l[i * n + k + 1] * x[k + 1];
        s += odd;
        if (i % 2 == 1)
            s -= l[i * n + i - 1] * x[i - 1];
        x[i] = s;
    }
    IK__UNROLL
    for (i = n - 1; i >= 0; i--) {
        ik_real s = x[i] * l[i * n + i];
        IK__UNROLL
        for (k = n - 1; k > i; k--)
            s -= l[k * n + i] * x[k];
        x[i] = s;
    }
}

// x <- L^-1 x for a factor from ik__ldlt() (n values): ik__ldlt_solve_n()'s first half.
static void ik__ldlt_forward(const ik_real *l, int n, ik_real *x)
{
    int i, k;
    for (i = 0; i < n; i += 2) { // (rows i and i + 1 together: their k < i shared, two at a time)
        const bool two = i + 1 < n; // (else row i alone)
        const ik_real *li = l + i * n, *li1 = two ? li + n : li;
        ik_real s = x[i], s1 = two ? x[i + 1] : 0, odd = 0, odd1 = 0;
        for (k = 0; k < i; k += 2) {
            const ik_real x0 = x[k], x1 = x[k + 1];
            s -= li[k] * x0, odd -= li[k + 1] * x1;
            s1 -= li1[k] * x0, odd1 -= li1[k + 1] * x1;
        }
        s += odd;
        x[i] = s;
        if (two)
            x[i + 1] = (s1 + odd1) - li1[i] * s;
    }
}

// x <- L^-T D^-1 x: ik__ldlt_solve_n()'s second half.
static void ik__ldlt_backward(const ik_real *l, int n, ik_real *x)
{
    int i, k;
    for (i = n - 1; i >= 0; i--) {
        ik_real s = x[i] * l[i * n + i];
        for (k = n - 1; k > i; k--) // (column i, k descending)
            s -= l[k * n + i] * x[k];
        x[i] = s;
    }
}

// ik__ldlt_solve_n() for any n.
IK__NOINLINE static void ik__ldlt_solve_rows(const ik_real *l, ik_real *x, int n)
{
    ik__ldlt_forward(l, n, x);
    ik__ldlt_backward(l, n, x);
}

static void ik__ldlt_solve(const ik_real *l, int n, ik_real *x)
{
    if (IK__FAST && n == 6)
        ik__ldlt_solve_n(l, x, 6);
    else if (IK__FAST && n == 3)
        ik__ldlt_solve_n(l, x, 3);
    else
        ik__ldlt_solve_rows(l, x, n);
}

// tr(A^-1) over the leading `rows` rows from ik__ldlt's factor (docs/jacobian.md).
IK__SIZED ik_real ik__ldlt_inverse_trace_n(const ik_real *l, const int n, int rows)
{
    ik_real tr = 0, mi[6][6], term[6];
    int i, j, k;
    IK__UNROLL
    for (k = 0; k < n; k++) {
        ik_real norm2 = 1;
        IK__UNROLL
        for (j = 0; j < k; j++) { // M_kj = -(L_kj + sum_{j < i < k} L_ki M_ij)
            ik_real t = l[k * n + j];
            IK__UNROLL
            for (i = j + 1; i < k; i++)
                t += l[k * n + i] * mi[i][j];
            mi[k][j] = -t;
            norm2 += t * t;
        }
        term[k] = norm2 * l[k * n + k];
    }
    for (k = 0; k < rows && k < n; k++) // (the leading rows: outside the unrolled loop)
        tr += term[k];
    return tr;
}

// M_kj = -(L_kj + sum_{j < i < k} L_ki M_ij) of M = L^-1 into l[j n + k] (the M_ij there already);
// returns -M_kj.
static ik_real ik__inverse_entry(ik_real *l, int n, int k, int j)
{
    ik_real t = l[k * n + j];
    int i;
    IK__UNROLL
    for (i = j + 1; i < k; i++)
        t += l[k * n + i] * l[j * n + i];
    l[j * n + k] = -t;
    return t;
}

// ik__inverse_entry() for rows k, k + 1 and columns j, j + 1 < k together, each sum over i in order
// (row k + 1's last term, i = k, once row k's are made); their squares added to norm2[0], norm2[1].
static void ik__inverse_block(ik_real *l, int n, int k, int j, ik_real *norm2)
{
    const ik_real *lk = l + k * n, *lk1 = lk + n, *mj = l + j * n, *mj1 = mj + n;
    ik_real t = lk[j] + lk[j + 1] * mj[j + 1], t1 = lk[j + 1];
    ik_real u = lk1[j] + lk1[j + 1] * mj[j + 1], u1 = lk1[j + 1];
    int i;
    for (i = j + 2; i < k; i++) {
        t += lk[i] * mj[i], t1 += lk[i] * mj1[i];
        u += lk1[i] * mj[i], u1 += lk1[i] * mj1[i];
    }
    u += lk1[k] * -t, u1 += lk1[k] * -t1;
    l[j * n + k] = -t, l[(j + 1) * n + k] = -t1;
    l[j * n + k + 1] = -u, l[(j + 1) * n + k + 1] = -u1;
    norm2[0] += t * t;
    norm2[0] += t1 * t1;
    norm2[1] += u * u;
    norm2[1] += u1 * u1;
}

// ik__ldlt_inverse_trace_n() for any n, M_kj kept in l's upper triangle (at l[j n + k]), two rows
// and two columns at a time.
IK__NOINLINE static ik_real ik__ldlt_inverse_trace_rows(ik_real *l, int n, int rows)
{
    const int last = rows < n ? rows : n;
    ik_real tr = 0, norm2[2], t;
    int j, k;
    for (k = 0; k < last; k += 2) {
        const bool pair = k + 1 < last; // (else row k alone)
        norm2[0] = norm2[1] = 1;
        for (j = 0; j + 1 < k && pair; j += 2)
            ik__inverse_block(l, n, k, j, norm2);
        for (; j < k; j++) { // (row k's last column, or all of a row alone)
            t = ik__inverse_entry(l, n, k, j);
            norm2[0] += t * t;
            t = pair ? ik__inverse_entry(l, n, k + 1, j) : 0;
            norm2[1] += t * t;
        }
        t = pair ? ik__inverse_entry(l, n, k + 1, k) : 0;
        norm2[1] += t * t;
        tr += norm2[0] * l[k * n + k];
        tr += pair ? norm2[1] * l[(k + 1) * n + k + 1] : 0;
    }
    return tr;
}

// (l's upper triangle is work: ik__ldlt() leaves it unused)
static ik_real ik__ldlt_inverse_trace(ik_real *l, int n, int rows)
{
    if (IK__FAST && n == 6)
        return ik__ldlt_inverse_trace_n(l, 6, rows);
    if (IK__FAST && n == 3)
        return ik__ldlt_inverse_trace_n(l, 3, rows);
    return ik__ldlt_inverse_trace_rows(l, n, rows);
}

// Whether column c takes part in the step: not pinned, and its joint not frozen (weight 0).
static bool ik__column_active(const ik__jac_work *w, int c)
{
    return w->pinned[c] == 0 && w->sw[c] > 0;
}

// The reduced problem: jw = the active columns of J diag(sqrt w), in order (m x na); returns na.
static int ik__jacobian_compact(ik__jac_work *w, int m, int dof)
{
    const int na = dof - w->pins - w->frozen;
    int r, c, a;
    for (c = 0, a = 0; c < dof; c++) {
        if (!ik__column_active(w, c))
            continue;
        for (r = 0; r < m; r++)
            w->jw[r * na + a] = w->jac[r * dof + c] * w->sw[c];
        a++;
    }
    IK_ASSERT(a == na);
    return na;
}

// dq (weighted, compact) to joint units in place: forced moves for pins, 0 for frozen joints.
static void ik__jacobian_expand(ik__jac_work *w, int dof, int na)
{
    int c, a = na - 1;
    for (c = dof - 1; c >= 0; c--)
        w->dq[c] = w->pinned[c] != 0         ? w->forced[c]
                   : ik__column_active(w, c) ? w->sw[c] * w->dq[a--]
                                             : 0;
}

// out[r - lo] = (J (sw x))_r (sw NULL: 1) for the goals' rows lo .. hi - 1 (whole goals'), each
// on its goal's columns (ik__skeleton_pack()): the dense rows' sums without their zeros (with sw,
// each product J (sw x) rather than (J sw) x), even and odd columns summed apart (the last added
// to the even ones), then added.
static void ik__goals_mul(const ik__jac_work *w, int lo, int hi, const ik_real *sw,
                          const ik_real *x, ik_real *out)
{
    const int dof = w->dof;
    ik_real *xg = w->packed_w + (w->rows - 1) * dof; // (its last row: free once A is made)
    int k, r, i;
    for (k = 0; k < w->goal_count; k++) {
        const ik__effector_goal *g = &w->goals[k];
        const int *cols = w->goal_cols + g->cols_at, end = g->row + g->pos_rows + g->rot_rows;
        if (g->row < lo || g->row >= hi)
            continue;
        for (i = 0; i < g->col_count; i++) // (sw x on the goal's columns, in a row)
            xg[i] = sw ? sw[cols[i]] * x[cols[i]] : x[cols[i]];
        for (r = g->row; r < end; r += 3) { // (3 rows at a time, a short block's last repeated)
            const int nr = end - r < 3 ? end - r : 3;
            const ik_real *p0 = w->packed + r * dof, *p1 = nr > 1 ? p0 + dof : p0;
            const ik_real *p2 = nr > 2 ? p1 + dof : p1;
            ik_real s0 = 0, s1 = 0, s2 = 0, odd0 = 0, odd1 = 0, odd2 = 0; // (odd columns' apart)
            for (i = 0; i + 1 < g->col_count; i += 2) {
                s0 += p0[i] * xg[i], odd0 += p0[i + 1] * xg[i + 1];
                s1 += p1[i] * xg[i], odd1 += p1[i + 1] * xg[i + 1];
                s2 += p2[i] * xg[i], odd2 += p2[i + 1] * xg[i + 1];
            }
            if (i < g->col_count)
                s0 += p0[i] * xg[i], s1 += p1[i] * xg[i], s2 += p2[i] * xg[i];
            out[r - lo] = s0 + odd0;
            if (nr > 1)
                out[r + 1 - lo] = s1 + odd1;
            if (nr > 2)
                out[r + 2 - lo] = s2 + odd2;
        }
    }
}

// out += J^T y (y[r - lo] for row r) over the goals' rows lo .. hi - 1, each column's rows summed
// in groups of 3 as ik__jacobian_tmul()'s (two groups added before they go to out).
static void ik__goals_tmul_add(const ik__jac_work *w, int lo, int hi, const ik_real *y,
                               ik_real *out)
{
    const int dof = w->dof;
    int k, r, i;
    for (k = 0; k < w->goal_count; k++) {
        const ik__effector_goal *g = &w->goals[k];
        const int *cols = w->goal_cols + g->cols_at, n = g->pos_rows + g->rot_rows;
        const ik_real *p = w->packed + g->row * dof, *yg = y + g->row - lo;
        for (r = 0; r < n && g->row >= lo && g->row < hi; r += 3) {
            const ik_real *p0 = p + r * dof, *p1 = p0 + dof, *p2 = p1 + dof, y0 = yg[r];
            const ik_real y1 = r + 1 < n ? yg[r + 1] : 0, y2 = r + 2 < n ? yg[r + 2] : 0;
            const bool six = n - r >= 6; // (and rows r + 3 .. r + 5 with them)
            const ik_real *p3 = six ? p2 + dof : p2, *p4 = six ? p3 + dof : p3;
            const ik_real *p5 = six ? p4 + dof : p4;
            const ik_real y3 = six ? yg[r + 3] : 0, y4 = six ? yg[r + 4] : 0;
            const ik_real y5 = six ? yg[r + 5] : 0;
            for (i = 0; i < g->col_count && six; i++) // (two groups in one pass)
                out[cols[i]] +=
                    (p0[i] * y0 + p1[i] * y1 + p2[i] * y2) + (p3[i] * y3 + p4[i] * y4 + p5[i] * y5);
            for (i = 0; i < g->col_count && n - r >= 3 && !six; i++)
                out[cols[i]] += p0[i] * y0 + p1[i] * y1 + p2[i] * y2;
            for (i = 0; i < g->col_count && n - r == 2; i++)
                out[cols[i]] += p0[i] * y0 + p1[i] * y1;
            for (i = 0; i < g->col_count && n - r == 1; i++)
                out[cols[i]] += p0[i] * y0;
            r += six ? 3 : 0;
        }
    }
}

// Whether the step's rows are applied through the goals: a skeleton's own rows (a speed path),
// or priority 1's projected rows J2 N1 before jac has them (ik__priority_step()).
static bool ik__rows_by_goals(const ik__jac_work *w)
{
    return w->goals && (w->by_goals ? IK__FAST : !w->jac);
}

// out = J (sw x) (sw NULL: 1) for the step's w->m rows: jac's, a skeleton's goals', or priority 1's
// projected, J2 N1 x = J2 x - Z^T D^-1 L^-1 J1 x (docs/skeletons.md, "Priorities"; L^-1 J1 x
// also into l1j1x where not NULL).
static void ik__rows_mul(const ik__jac_work *w, const ik_real *sw, const ik_real *x, ik_real *out,
                         ik_real *l1j1x)
{
    const int m = w->m, m1 = w->first_rows, dof = w->dof;
    const ik_real *l1, *zt; // (Z^T: ik__priority_projector())
    ik_real *j1x = w->v;    // (free in the normal equations' step)
    int r, k, c;
    if (!ik__rows_by_goals(w)) {
        for (r = 0; r < m; r++) { // (as ik__goals_mul()'s sums)
            const ik_real *jr = w->jac + r * dof;
            ik_real s = 0, odd = 0;
            for (c = 0; c + 1 < dof; c += 2) {
                s += (sw ? jr[c] * sw[c] : jr[c]) * x[c];
                odd += (sw ? jr[c + 1] * sw[c + 1] : jr[c + 1]) * x[c + 1];
            }
            if (c < dof)
                s += (sw ? jr[c] * sw[c] : jr[c]) * x[c];
            out[r] = s + odd;
        }
    } else if (w->by_goals) {
        ik__goals_mul(w, 0, m, sw, x, out);
    } else {
        l1 = w->proj + w->rows * w->rows, zt = l1 + w->rows * w->rows;
        ik__goals_mul(w, m1, m1 + m, sw, x, out);
        ik__goals_mul(w, 0, m1, sw, x, j1x);
        ik__ldlt_forward(l1, m1, j1x);
        for (k = 0; k < m1 && l1j1x; k++)
            l1j1x[k] = j1x[k];
        for (k = 0; k < m1; k++)
            j1x[k] *= l1[k * m1 + k];
        for (r = 0; r < m; r += 2) { // (two rows at a time, a last one repeated; odd k apart)
            const int r1 = r + 1 < m ? r + 1 : r;
            const ik_real *z0 = zt + r * m1, *z1 = zt + r1 * m1;
            ik_real s = out[r], s1 = out[r1], odd = 0, odd1 = 0;
            for (k = 0; k + 1 < m1; k += 2) {
                s -= z0[k] * j1x[k], odd -= z0[k + 1] * j1x[k + 1];
                s1 -= z1[k] * j1x[k], odd1 -= z1[k + 1] * j1x[k + 1];
            }
            if (k < m1)
                s -= z0[k] * j1x[k], s1 -= z1[k] * j1x[k];
            out[r] = s + odd, out[r1] = s1 + odd1;
        }
    }
}

// out = J^T y for the step's rows (as ik__rows_mul()'s: jac's, the goals', or J2 N1's,
// J2^T y - J1^T L^-T D^-1 (Z y + n), n NULL: 0).
static void ik__rows_tmul_n(const ik__jac_work *w, const ik_real *y, const ik_real *n, ik_real *out)
{
    const int m = w->m, m1 = w->first_rows;
    const ik_real *l1, *zt; // (Z^T: ik__priority_projector())
    ik_real *u = w->v;      // (free in the normal equations' step)
    int r, k;
    if (!ik__rows_by_goals(w)) {
        ik__jacobian_tmul(w->jac, y, m, w->dof, out);
        return;
    }
    memset(out, 0, (size_t)w->dof * sizeof *out);
    if (w->by_goals) {
        ik__goals_tmul_add(w, 0, m, y, out);
        return;
    }
    l1 = w->proj + w->rows * w->rows, zt = l1 + w->rows * w->rows;
    ik__goals_tmul_add(w, m1, m1 + m, y, out);
    for (k = 0; k < m1; k += 2) { // u = -D^T y (two at a time, a last one repeated)
        const int k1 = k + 1 < m1 ? k + 1 : k;
        ik_real s = 0, s1 = 0, odd = 0, odd1 = 0; // (odd r apart)
        for (r = 0; r + 1 < m; r += 2) {
            s += zt[r * m1 + k] * y[r], odd += zt[(r + 1) * m1 + k] * y[r + 1];
            s1 += zt[r * m1 + k1] * y[r], odd1 += zt[(r + 1) * m1 + k1] * y[r + 1];
        }
        if (r < m)
            s += zt[r * m1 + k] * y[r], s1 += zt[r * m1 + k1] * y[r];
        s += odd, s1 += odd1;
        u[k] = n ? s + n[k] : s, u[k1] = n ? s1 + n[k1] : s1;
    }
    ik__ldlt_backward(l1, m1, u);
    for (k = 0; k < m1; k++)
        u[k] = -u[k];
    ik__goals_tmul_add(w, 0, m1, u, out);
}

static void ik__rows_tmul(const ik__jac_work *w, const ik_real *y, ik_real *out)
{
    ik__rows_tmul_n(w, y, NULL, out);
}

// z projected on the null space of Jw, by the factor l of Jw Jw^T (m x m).
static void ik__null_project(const ik__jac_work *w, const ik_real *l, int m, int dof, ik_real *z)
{
    const ik_real *jac = w->jac, *sw = w->sw;
    ik_real *t = w->rv, *g = w->packed_w; // (free once the normal matrix is made)
    int r, c;
    if (ik__rows_by_goals(w)) {
        ik__rows_mul(w, sw, z, t, NULL); // (z is 0 on pinned columns)
        ik__ldlt_solve(l, m, t);
        ik__rows_tmul(w, t, g);
        for (c = 0; c < dof; c++)
            z[c] -= w->pinned[c] != 0 ? 0 : sw[c] * g[c];
        return;
    }
    for (r = 0; r < m; r++) {
        t[r] = 0;
        for (c = 0; c < dof; c++)
            t[r] += jac[r * dof + c] * sw[c] * z[c]; // (z is 0 on pinned columns)
    }
    ik__ldlt_solve(l, m, t);
    for (c = 0; c < dof; c++) {
        ik_real d = 0;
        for (r = 0; r < m; r++)
            d += jac[r * dof + c] * t[r];
        z[c] -= w->pinned[c] != 0 ? 0 : sw[c] * d;
    }
}

// lambda^2 for the error e given s2 = s_h^2: 0 but for DLS, damping^2, or adaptive (docs).
static ik_real ik__dls_damping(const ik_jacobian_opts *o, ik_real s2, const ik_real *e, int m,
                               ik_real scale)
{
    ik_real eps2 = IK_R(0.0025) * scale * scale, lmax2 = IK_R(0.01) * scale * scale, e2 = 0;
    int r;
    if (o->method != IK_JACOBIAN_DLS)
        return 0;
    if (o->damping > 0)
        return o->damping * o->damping;
    for (r = 0; r < m; r++)
        e2 += e[r] * e[r];
    return s2 < eps2 ? (1 - s2 / eps2) * (e2 < lmax2 ? e2 : lmax2) : 0;
}

// With every weight 1 and no column pinned, W = I: no weights to make or apply.
static bool ik__unweighted(const ik__jac_work *w)
{
    return IK__FAST && w->unit_weights && w->pins == 0;
}

// l = B's undamped LDL^T, copied from `given` (B's, made already) where there is one.
static bool ik__ldlt_given(const ik_real *b, const ik_real *given, int n, ik_real *l)
{
    if (!given)
        return ik__ldlt(b, 0, n, l);
    memcpy(l, given, (size_t)(n * n) * sizeof *l);
    return true;
}

// Solves (B + lambda^2 I) y = y by LDL^T (B: n x n, its leading `rows` block of trace tr; l its
// undamped factor, copied from `given` where not NULL, ld the damped one's); false where B or
// need_l ask for the SVD (docs/jacobian.md, "Joint limits").
static bool ik__normal_solve(const ik_jacobian_opts *o, const ik_real *b, int n, int rows,
                             ik_real tr, const ik_real *e, int m, ik_real scale, bool need_l,
                             const ik_real *given, ik_real *l, ik_real *ld, ik_real *y,
                             const ik_real **used)
{
    const ik_real rcond2 = o->rcond * o->rcond, least = IK_EPSILON * IK_R(1e4);
    // the conditioning: s_h^2 > cut tr(B), cut relaxed by (6 / rows)^2 beyond 6 rows (s_h^2 /
    // tr(B) <= 1 / rows^2: with many rows no test without it would pass in float)
    const ik_real spread = rows > 6 ? 36 / ((ik_real)rows * (ik_real)rows) : 1;
    const ik_real cut = (rcond2 > least ? rcond2 : least) * spread;
    ik_real sh2 = 0, lambda2;
    bool factored = tr > 0 && ik__ldlt_given(b, given, n, l), conditioned, damped;
    if (factored)
        sh2 = 1 / ik__ldlt_inverse_trace(l, n, rows);
    conditioned = factored && sh2 > cut * tr;
    if (!conditioned && (need_l || !(tr > 0)))
        return false;
    lambda2 = ik__dls_damping(o, sh2, e, m, scale);
    // (a damping below the rounding of B's smallest eigenvalue keeps the factor)
    damped = lambda2 > IK_EPSILON * sh2 / 8;
    if (damped && !ik__ldlt(b, lambda2, n, ld))
        return false;
    if (!conditioned &&
        !(damped && 1 / ik__ldlt_inverse_trace(ld, n, rows) > cut * (tr + (ik_real)rows * lambda2)))
        return false;
    ik__ldlt_solve(damped ? ld : l, n, y);
    *used = damped ? ld : l;
    return true;
}

// A = J W J^T, W the weights with pinned columns 0 (in jw; none where ik__unweighted()).
// The rows lo .. hi - 1 of a skeleton's jac (whole effectors') packed: row r's entries on its
// effector's columns (ascending) at w->packed + r dof, and times the columns' weights wa at
// w->packed_w + r dof (wa NULL: weights 1, packed alone).
static void ik__skeleton_pack(const ik__jac_work *w, const ik_real *jac, int lo, int hi,
                              const ik_real *wa)
{
    const int dof = w->dof;
    int k, r, i;
    for (k = 0; k < w->goal_count; k++) {
        const ik__effector_goal *g = &w->goals[k];
        const int *cols = w->goal_cols + g->cols_at, n = g->col_count;
        const int end = g->row >= lo && g->row < hi ? g->row + g->pos_rows + g->rot_rows : 0;
        for (r = g->row; r < end; r++) {
            const ik_real *jr = jac + r * dof;
            ik_real *p = w->packed + r * dof, *pw = w->packed_w + r * dof;
            for (i = 0; i < n && wa; i++) {
                p[i] = jr[cols[i]];
                pw[i] = p[i] * wa[cols[i]];
            }
            for (i = 0; i < n && !wa; i++)
                p[i] = jr[cols[i]];
        }
    }
}

// A block of ik__skeleton_normal(), nr x ns (at most 3 x 3): rows x, x + dof, .. (weighted) times
// rows y, .. over the columns from .. p - 1 (those before: a block's 0s) into a (stride n) and its
// transpose into at, by ik__normal_block_n()'s sums (a short block's missing rows repeat its last,
// their sums unused); diagonal (at = a): the lower half, mirrored.
static void ik__packed_block(const ik_real *x, const ik_real *y, int dof, int from, int p,
                             bool diagonal, int nr, int ns, ik_real *a, ik_real *at, int n)
{
    const ik_real *x1 = nr > 1 ? x + dof : x, *x2 = nr > 2 ? x1 + dof : x1;
    const ik_real *y1 = ns > 1 ? y + dof : y, *y2 = ns > 2 ? y1 + dof : y1;
    ik_real b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, b7 = 0, b8 = 0, b[9];
    int i, j;
    for (i = from; i < p && diagonal; i++) { // (the sums in registers: b[] is for the stores)
        b0 += x[i] * y[i], b3 += x1[i] * y[i], b4 += x1[i] * y1[i];
        b6 += x2[i] * y[i], b7 += x2[i] * y1[i], b8 += x2[i] * y2[i];
    }
    for (i = from; i < p && !diagonal; i++) {
        b0 += x[i] * y[i], b1 += x[i] * y1[i], b2 += x[i] * y2[i];
        b3 += x1[i] * y[i], b4 += x1[i] * y1[i], b5 += x1[i] * y2[i];
        b6 += x2[i] * y[i], b7 += x2[i] * y1[i], b8 += x2[i] * y2[i];
    }
    if (diagonal)
        b1 = b3, b2 = b6, b5 = b7;
    if (nr == 3 && ns == 3) {
        a[0] = at[0] = b0, a[1] = at[n] = b1, a[2] = at[2 * n] = b2;
        a[n] = at[1] = b3, a[n + 1] = at[n + 1] = b4, a[n + 2] = at[2 * n + 1] = b5;
        a[2 * n] = at[2] = b6, a[2 * n + 1] = at[n + 2] = b7;
        a[2 * n + 2] = at[2 * n + 2] = b8;
        return;
    }
    b[0] = b0, b[1] = b1, b[2] = b2, b[3] = b3, b[4] = b4, b[5] = b5, b[6] = b6, b[7] = b7;
    b[8] = b8;
    for (i = 0; i < nr; i++)
        for (j = 0; j < ns; j++)
            a[i * n + j] = at[j * n + i] = b[i * 3 + j];
}

// The leading columns of p where rows x, x + dof, .. (nr of them) are all exactly 0.
static int ik__zero_lead(const ik_real *x, int dof, int nr, int p)
{
    const ik_real *x1 = nr > 1 ? x + dof : x, *x2 = nr > 2 ? x1 + dof : x1;
    int i;
    for (i = 0; i < p && x[i] == 0 && x1[i] == 0 && x2[i] == 0; i++)
        ;
    return i;
}

// How many leading entries two effectors' ascending column lists share: their common ancestors'
// (a prefix, "Cost"), by bisection.
static int ik__common_prefix(const int *ck, int nk, const int *cl, int nl)
{
    int lo = 0, hi = nk < nl ? nk : nl;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (ck[mid] == cl[mid])
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// A = J diag(wa) J^T (wa NULL: 1) for the rows lo .. hi - 1 of a skeleton's jac (whole effectors'
// rows), each pair of effectors' rows summed over the columns both use only: their common
// ancestors', a common prefix of their ascending columns (docs/skeletons.md, "Cost"), from the
// first where neither block of 3 rows is all 0s (a floating root's translations in rotation rows:
// products of 0 add nothing to a sum begun at 0); blocks of 3 rows as ik__normal_matrix()'s, an
// effector's last block shorter (the same sums).
static void ik__skeleton_normal(const ik__jac_work *w, const ik_real *jac, int lo, int hi,
                                const ik_real *wa, ik_real *a)
{
    const int n = hi - lo, dof = w->dof;
    const ik_real *weighted = wa ? w->packed_w : w->packed;
    ik_real *lead = w->v; // (each block's ik__zero_lead() at its first row; v is free here)
    int k, l, p, rc, sc;
    ik__skeleton_pack(w, jac, lo, hi, wa);
    for (k = 0; k < w->goal_count; k++) {
        const ik__effector_goal *g = &w->goals[k];
        const int end = g->row + g->pos_rows + g->rot_rows;
        for (rc = g->row; rc < end && g->row >= lo && g->row < hi; rc += 3)
            lead[rc] = (ik_real)ik__zero_lead(w->packed + rc * dof, dof,
                                              end - rc < 3 ? end - rc : 3, g->col_count);
    }
    for (k = 0; k < w->goal_count; k++)
        for (l = 0; l < w->goal_count; l++) {
            const ik__effector_goal *gk = &w->goals[k], *gl = &w->goals[l];
            const int rk = gk->row + gk->pos_rows + gk->rot_rows;
            const int rl = gl->row + gl->pos_rows + gl->rot_rows;
            if (gk->row < lo || gk->row >= hi || gl->row < lo || gl->row > gk->row)
                continue;
            p = ik__common_prefix(w->goal_cols + gk->cols_at, gk->col_count,
                                  w->goal_cols + gl->cols_at, gl->col_count);
            for (rc = gk->row; rc < rk; rc += 3) // (blocks of 3 rows, the last shorter)
                for (sc = gl->row; sc < rl && sc <= rc; sc += 3) {
                    const int from = (int)(lead[rc] > lead[sc] ? lead[rc] : lead[sc]);
                    ik__packed_block(weighted + rc * dof, w->packed + sc * dof, dof, from, p,
                                     rc == sc, rk - rc < 3 ? rk - rc : 3, rl - sc < 3 ? rl - sc : 3,
                                     a + (rc - lo) * n + sc - lo, a + (sc - lo) * n + rc - lo, n);
                }
        }
}

static void ik__priority_normal(const ik__jac_work *w, const ik_real *wa, ik_real *a);

static void ik__normal_weighted(ik__jac_work *w, bool plain, ik_real *a)
{
    int c;
    for (c = 0; c < w->dof && !plain; c++)
        w->jw[c] = w->sw[c] * w->sw[c] * (ik_real)(w->pinned[c] == 0); // (no branch)
    if (w->goals && w->by_goals && w->full_rows > 0) { // (its leading block, made already)
        for (c = 0; c < w->m; c++)
            memcpy(a + c * w->m, w->proj + c * w->full_rows, (size_t)w->m * sizeof *a);
    } else if (w->goals && w->by_goals) {
        ik__skeleton_normal(w, w->jac, 0, w->m, plain ? NULL : w->jw, a);
    } else if (w->goals) { // (priority 1's rows projected)
        ik__priority_normal(w, plain ? NULL : w->jw, a);
    } else {
        ik__normal_matrix(w->jac, plain ? NULL : w->jw, w->m, w->dof, a);
    }
}

// Whether the normal equations' step leaves J^T y to the rest pose's projection, made with it
// (ik__rest_projected()): priority 1's projected rows (products through the goals and Z).
static bool ik__rest_with_step(const ik__jac_work *w, bool rest)
{
    return IK__FAST && rest && w->goals && !w->by_goals && !w->jac;
}

// DLS and PINV by the normal equations (Jw Jw^T + lambda^2 I) y = e; false where they fail.
static bool ik__jacobian_step_normal(const ik_jacobian_opts *o, ik__jac_work *w, int m, int dof,
                                     const ik_real *e, ik_real scale, bool with_rest, ik_real *l)
{
    const ik_real *sw = w->sw, *pinned = w->pinned;
    const bool plain = ik__unweighted(w);
    const ik_real *a1 =
        IK__FAST && w->goals && w->full_rows > 0 && w->a1_unshifted // (priority 0's A1)
            ? w->proj + w->rows * w->rows
            : NULL;
    ik_real *a = w->normal, *y = w->rv, tr = 0;
    const ik_real *used;
    int r, c;
    ik__normal_weighted(w, plain, a);
    for (r = 0; r < m; r++) {
        tr += a[r * m + r];
        y[r] = e[r];
    }
    if (!ik__normal_solve(o, a, m, m, tr, e, m, scale, with_rest, a1, l, w->damped, y, &used))
        return false;
    if (w->full_rows == 0) // (priority 0's step: the chord takes proj's factor of A1)
        w->chord_factor = used;
    else
        w->chord_first = true;
    w->has_y = w->pins > 0; // (read only where a column is pinned)
    for (r = 0; r < m && w->has_y; r++)
        w->y[r] = y[r];
    w->y_in_rv = true;
    if (ik__rest_with_step(w, with_rest)) // (J^T y with the rest's, ik__rest_projected())
        return true;
    ik__rows_tmul(w, y, w->dq);
    for (c = 0; c < dof && !plain; c++)
        w->dq[c] = pinned[c] != 0 ? 0 : sw[c] * w->dq[c];
    return true;
}

// DLS and PINV with fewer active columns than rows: (Jw^T Jw + lambda^2 I) x = Jw^T e.
static bool ik__jacobian_step_tall(const ik_jacobian_opts *o, ik__jac_work *w, int m, int na,
                                   const ik_real *e, ik_real scale, bool with_rest)
{
    // (padded to the fast paths' 3 or 6 rows by the identity)
    const int n = !IK__FAST || na > 6 ? na : (na <= 3 ? 3 : 6);
    ik_real *b = w->normal, *x = w->rv, tr = 0;
    const ik_real *used; // (a chord step takes no tall step)
    int r, i, j;
    for (i = 0; i < na; i++) { // B's lower triangle and Jw^T e
        ik_real xi = 0;
        for (j = 0; j <= i; j++) {
            ik_real sum = 0;
            for (r = 0; r < m; r++)
                sum += w->jw[r * na + i] * w->jw[r * na + j];
            b[i * n + j] = sum;
        }
        for (r = 0; r < m; r++)
            xi += w->jw[r * na + i] * e[r];
        x[i] = xi;
        tr += b[i * n + i];
    }
    for (i = na; i < n; i++) { // the padding's rows of the identity
        x[i] = 0;
        for (j = 0; j <= i; j++)
            b[i * n + j] = i == j ? 1 : 0;
    }
    if (!ik__normal_solve(o, b, n, na, tr, e, m, scale, with_rest, NULL, w->factor, w->damped, x,
                          &used))
        return false;
    memcpy(w->dq, x, (size_t)na * sizeof(ik_real));
    return true;
}

// The sum of the norms of the blocks of 3 rows (the last one shorter) of a column of m values,
// x[0], x[stride], ...
IK__SIZED ik_real ik__block_norms(const ik_real *x, int m, int stride)
{
    ik_real sum = 0, tail = 0;
    int r;
    for (r = 0; r + 3 <= m; r += 3) {
        const ik_real a = x[r * stride], b = x[(r + 1) * stride], c = x[(r + 2) * stride];
        sum += IK_SQRT(a * a + b * b + c * c);
    }
    for (; r < m; r++)
        tail += x[r * stride] * x[r * stride];
    return m % 3 != 0 ? sum + IK_SQRT(tail) : sum;
}

// SDLS's factor for singular triple i: (u_i . e) / s_i, clamped to gamma_i (docs/jacobian.md).
static ik_real ik__sdls_factor(const ik__jac_work *w, int m, int na, int k, int i, ik_real ue,
                               ik_real gamma_max)
{
    const ik_real *v = w->v, si = w->s[i];
    ik_real ni = ik__block_norms(w->u + i, m, k), mi = 0, gi, big = 0, f = ue / si;
    int c;
    for (c = 0; c < na; c++)
        mi += IK_FABS(v[c * k + i]) * ik__block_norms(w->jw + c, m, na);
    mi /= si;
    gi = gamma_max * (mi > ni ? ni / mi : 1);
    for (c = 0; c < na; c++)
        big = IK_FABS(f * v[c * k + i]) > big ? IK_FABS(f * v[c * k + i]) : big;
    return big > gi ? f * (gi / big) : f;
}

// PINV, DLS and SDLS by the SVD of the compact Jw: dq (compact), and its dual y.
static void ik__jacobian_step_svd(const ik_jacobian_opts *o, ik__jac_work *w, int m, int na,
                                  const ik_real *e, ik_real scale)
{
    const int k = m < na ? m : na;
    ik_real lambda2 = 0, inv = 0;
    int i, r, c;
    ik__svd(w->jw, m, na, w->u, w->s, w->v);
    if (o->method == IK_JACOBIAN_DLS) {
        for (i = 0; i < k; i++) // 1 / s_h^2 (a zero singular value: s_h = 0)
            inv += w->s[i] * w->s[i] > 0 ? 1 / (w->s[i] * w->s[i]) : IK_INFINITY;
        lambda2 = ik__dls_damping(o, 1 / inv, e, m, scale);
    }
    for (c = 0; c < na; c++)
        w->dq[c] = 0;
    w->has_y = w->pins > 0; // (read only where a column is pinned)
    for (r = 0; r < m && w->has_y; r++)
        w->y[r] = 0;
    for (i = 0; i < k; i++) {
        ik_real si = w->s[i], ue = 0, f;
        if (!(si > 0) || (o->method == IK_JACOBIAN_PINV && si <= o->rcond * w->s[0]))
            continue;
        for (r = 0; r < m; r++)
            ue += w->u[r * k + i] * e[r];
        if (o->method == IK_JACOBIAN_PINV)
            f = ue / si;
        else if (o->method == IK_JACOBIAN_DLS)
            f = ue * si / (si * si + lambda2);
        else
            f = ik__sdls_factor(w, m, na, k, i, ue, o->max_joint_step);
        for (c = 0; c < na; c++)
            w->dq[c] += f * w->v[c * k + i];
        for (r = 0; r < m && w->has_y; r++)
            w->y[r] += f / si * w->u[r * k + i];
    }
}

// A bound on the weighted Jacobian's entries: the reach (or ow) times the largest sqrt(weight).
static ik_real ik__jacobian_bound(const ik__jac_work *w, ik_real reach)
{
    ik_real sw = 0;
    int c;
    for (c = 0; c < w->dof; c++)
        sw = w->sw[c] > sw ? w->sw[c] : sw;
    reach = reach > 1 ? reach : 1;
    return ik__finite(reach) ? (reach > w->ow ? reach : w->ow) * sw : IK_INFINITY;
}

// The transpose step alpha Jw^T e (pinned columns 0), alpha the minimizer along it.
static void ik__jacobian_step_transpose(ik__jac_work *w, int m, int dof, const ik_real *e)
{
    ik_real *es = w->rv, num = 0, den = 0, alpha, big = 0, emax = 0, js = 1, back = 1;
    int r, c;
    // (J and e scaled to 1 where |J J^T e|^2 could overflow: a huge orientation weight)
    for (r = 0; r < m; r++)
        emax = IK_FABS(e[r]) > emax ? IK_FABS(e[r]) : emax;
    big = w->jac_bound; // (any bound will do; the entries themselves where it is large)
    if (!(big <= IK_SQRT(IK_SQRT(IK__REAL_MAX))))
        for (r = 0, big = 0; r < m; r++)
            for (c = 0; c < dof; c++)
                big = IK_FABS(w->jac[r * dof + c] * w->sw[c]) > big
                          ? IK_FABS(w->jac[r * dof + c] * w->sw[c])
                          : big;

    if (big > 0 && emax > 0 &&
        (big > IK_SQRT(IK_SQRT(IK__REAL_MAX)) ||
         emax * (ik_real)(m * dof) > IK_SQRT(IK__REAL_MAX) / (big * big)))
        js = 1 / big, back = emax / big;
    for (r = 0; r < m; r++)
        es[r] = back != 1 ? e[r] / emax : e[r];
    for (c = 0; c < dof; c++) {
        w->dq[c] = 0;
        for (r = 0; r < m; r++)
            w->dq[c] += w->jac[r * dof + c] * js * es[r];
        w->dq[c] *= w->pinned[c] != 0 ? 0 : w->sw[c];
    }
    for (r = 0; r < m; r++) {
        ik_real jjte = 0; // (J J^T e)_r
        for (c = 0; c < dof; c++)
            jjte += w->jac[r * dof + c] * js * w->sw[c] * w->dq[c];
        num += es[r] * jjte;
        den += jjte * jjte;
    }
    alpha = den > 0 ? num / den : 0;
    for (c = 0; c < dof; c++)
        w->dq[c] *= alpha * back;
}

// A ball joint's exponential map v[0..2] as IK_BALL_EULER's yaw, pitch, roll.
static ik_vec3 ik__expmap_to_ypr(const ik_real *v)
{
    ik_quat r = ik_quat_from_expmap(ik_vec3_make(v[0], v[1], v[2]));
    return ik_mat3_to_euler(ik_quat_to_mat3(r), IK_EULER_YXZ);
}

// x (a ball's 3 values) in its frame's coordinates: M x (ik__ball_frames()).
static void ik__ball_frame_in(const ik_real *frame, ik_real *x)
{
    ik_mat3 fm[2];
    ik_vec3 z;
    memcpy(fm, frame, sizeof fm);
    z = ik_mat3_mul_vec3(fm[1], ik_vec3_make(x[0], x[1], x[2]));
    x[0] = z.x, x[1] = z.y, x[2] = z.z;
}

// The pull toward the rest pose into w->trial, rest_gain (rest - q) / sqrt(w); 0 if not active.
static void ik__rest_pull(const ik_chain *chain, const ik_jacobian_opts *o, ik__jac_work *w,
                          bool euler)
{
    int c, jt, t;
    for (c = 0; c < w->dof; c++) { // (every weight 1: no division)
        const ik_real pull = o->rest_gain * (o->rest[c] - w->q[c]), sw = w->sw[c];
        w->trial[c] = w->unit_weights ? pull : (sw == 0 ? 0 : pull / sw);
    }
    for (c = 0, jt = 0; jt < chain->joint_count;
         c += ik_joint_type_dof(chain->joints[jt].type), jt++) {
        const ik_joint *j = &chain->joints[jt];
        if (j->type != IK_JOINT_BALL)
            continue;
        if (euler) { // (the rest's yaw, pitch, roll)
            ik_vec3 ypr = ik__expmap_to_ypr(o->rest + c);
            const ik_real rest[3] = { ypr.x, ypr.y, ypr.z }, sw = w->sw[c];
            for (t = 0; t < 3; t++)
                w->trial[c + t] = sw == 0 ? 0 : o->rest_gain * (rest[t] - w->q[c + t]) / sw;
        }
        if (j->limit && w->hi[c + 2] < IK_INFINITY)
            ik__ball_frame_in(w->frame + 6 * c, w->trial + c);
    }
    for (c = 0; c < w->dof && w->pins > 0; c++)
        w->trial[c] = w->pinned[c] != 0 ? 0 : w->trial[c];
}

// Adds the rest pull projected on the step's null space, no longer than the task's step.
static void ik__jacobian_rest(const ik_chain *chain, const ik_jacobian_opts *o, ik__jac_work *w,
                              int m, int dof, int na, const ik_real *l, bool euler)
{
    const int n = l ? dof : na, k = m < na ? m : na;
    ik_real task2 = 0, null2 = 0, shrink;
    int c, a, i;
    ik__rest_pull(chain, o, w, euler);
    if (l)
        ik__null_project(w, l, m, dof, w->trial);
    for (c = 0, a = 0; c < dof && !l; c++) // compact
        if (ik__column_active(w, c))
            w->trial[a++] = w->trial[c];
    for (i = 0; i < k && !l; i++) {
        ik_real d = 0;
        if (!(w->s[i] > o->rcond * w->s[0]))
            continue;
        for (c = 0; c < na; c++)
            d += w->v[c * k + i] * w->trial[c];
        for (c = 0; c < na; c++)
            w->trial[c] -= d * w->v[c * k + i];
    }
    for (c = 0; c < n; c++) {
        task2 += w->dq[c] * w->dq[c];
        null2 += w->trial[c] * w->trial[c];
    }
    shrink = null2 > task2 ? IK_SQRT(task2 / null2) : 1;
    for (c = 0; c < n; c++)
        w->dq[c] += w->trial[c] * shrink;
}

// x . y over n values.
static ik_real ik__dot(const ik_real *x, const ik_real *y, int n)
{
    ik_real sum = 0;
    int i;
    for (i = 0; i < n; i++)
        sum += x[i] * y[i];
    return sum;
}

// ik__jacobian_rest() with the step's J^T y made with the rest's J^T t (docs/skeletons.md, "Cost"):
// y (in rv) and A (m x m, in w->normal) from the normal equations, l A's factor; with b = J r and
// t = A^-1 b, |dq|^2 = y^T A y and the projected pull's |r - J^T t|^2 = |r|^2 - b . t, then
// dq = J^T (y - shrink t) + shrink r (weights: J for J S, r and dq scaled, pinned columns 0). n1:
// N1 applied here too; priority 1's rows J2 N1 leave priority 0's unmoved, so N1 changes shrink r
// only, by -W J1^T A1^-1 J1 shrink r, the projection's L^-1 J1 r made already.
static void ik__rest_projected(const ik_jacobian_opts *o, ik__jac_work *w, int m, int dof,
                               const ik_real *l, bool n1)
{
    const ik_real *y = w->rv, *a = w->normal;
    ik_real *b = w->v + w->first_rows, *t = w->s, *j1r = b + m, task2 = 0, null2 = 0,
            shrink; // (free here; the factors stay for a chord step)
    int r, c;
    ik__rest_pull(w->chain, o, w, w->euler); // (r: 0 on pinned columns)
    ik__rows_mul(w, ik__unweighted(w) ? NULL : w->sw, w->trial, b, n1 ? j1r : NULL);
    for (r = 0; r < m; r++)
        t[r] = b[r];
    ik__ldlt_solve(l, m, t);
    for (r = 0; r < m; r++) {
        task2 += y[r] * ik__dot(a + r * m, y, m);
        null2 -= b[r] * t[r];
    }
    null2 += ik__dot(w->trial, w->trial, dof);
    shrink = null2 > task2 ? IK_SQRT(task2 / null2) : 1;
    for (r = 0; r < m; r++)
        t[r] = y[r] - shrink * t[r];
    for (r = 0; r < w->first_rows && n1; r++) // (N1: - W J1^T A1^-1 J1 shrink r)
        j1r[r] *= shrink;
    ik__rows_tmul_n(w, t, n1 ? j1r : NULL, w->dq);
    for (c = 0; c < dof; c++)
        w->dq[c] =
            w->pins > 0 && w->pinned[c] != 0
                ? 0
                : (ik__unweighted(w) ? w->dq[c] : w->sw[c] * w->dq[c]) + shrink * w->trial[c];
}

static void ik__priority_rows(ik__jac_work *w);

// One step dq (joint units) for J dq = e on the active columns, pinned joints' forced moves added.
static void ik__jacobian_step(const ik_chain *chain, const ik_jacobian_opts *o, ik__jac_work *w,
                              int m, int dof, const ik_real *e, ik_real scale, bool euler)
{
    const bool rest = o->rest && o->rest_gain > 0, normal_eqs = o->method != IK_JACOBIAN_SDLS;
    const int na = dof - w->pins - w->frozen; // active columns
    ik_real *l = w->factor;
    int c;
    w->has_y = false; // (set with pins by the normal equations of J Jw^T and by the SVD)
    w->y_in_rv = w->n1_folded = false;
    if (w->full_rows == 0) // (set where the normal equations solve it: ik__chord_ready())
        w->chord_factor = NULL;
    else
        w->chord_first = false;
    if (o->method == IK_JACOBIAN_TRANSPOSE) {
        ik__priority_rows(w);
        ik__jacobian_step_transpose(w, m, dof, e);
    } else if (normal_eqs && na >= m && ik__jacobian_step_normal(o, w, m, dof, e, scale, rest, l)) {
        // (J2 N1's rows W-orthogonal to J1's with A1 unshifted: N1 applied with J^T, docs)
        w->n1_folded = ik__rest_with_step(w, true) && w->a1_unshifted;
        if (ik__rest_with_step(w, rest))
            ik__rest_projected(o, w, m, dof, l, w->n1_folded);
        else if (rest)
            ik__jacobian_rest(chain, o, w, m, dof, na, l, euler);
    } else {
        ik__priority_rows(w);
        ik__jacobian_compact(w, m, dof);
        if (na > 0 &&
            !(normal_eqs && na < m && ik__jacobian_step_tall(o, w, m, na, e, scale, rest))) {
            ik__jacobian_step_svd(o, w, m, na, e, scale);
            if (rest)
                ik__jacobian_rest(chain, o, w, m, dof, na, NULL, euler);
        }
        ik__jacobian_expand(w, dof, na);
        return;
    }
    // back to joint units (the weights), then the forced moves of pinned joints
    for (c = 0; c < dof && !ik__unweighted(w); c++)
        w->dq[c] = w->pinned[c] != 0 ? w->forced[c] : w->dq[c] * w->sw[c];
}

// pinned[c]: 0 free, 1 new, 2 carried, above 2 waiting to be freed (docs/jacobian.md).
#define IK__PIN_WAIT 8

// -1 if column c is on its lower limit, 1 on its upper one, else 0 (within a few roundings of q).
static int ik__limit_side(const ik__jac_work *w, int c)
{
    const ik_real q = w->q[c], lo = w->lo[c], hi = w->hi[c],
                  within = 4 * IK_EPSILON * (1 + IK_FABS(q));
    if (IK_FABS(q - lo) <= within)
        return -1;
    return IK_FABS(q - hi) <= within ? 1 : 0;
}

// The active set at an iteration's start: pins still on their limits stay, unless fresh_pins.
static void ik__pins_carry(ik__jac_work *w, int dof)
{
    int c;
    if (w->pins == 0 && w->released == 0)
        return; // (nothing pinned or marked: nothing to carry or clear)
    w->pins = w->released = 0;
    for (c = 0; c < dof && w->policy.fresh_pins; c++)
        w->pinned[c] = w->forced[c] = 0;
    for (c = 0; c < dof && !w->policy.fresh_pins; c++) {
        int side = w->pinned[c] != 0 ? ik__limit_side(w, c) : 0;
        w->pinned[c] = side == 0 ? 0 : (w->pinned[c] > 2 ? w->pinned[c] - 1 : 2);
        w->forced[c] = side < 0 ? w->lo[c] - w->q[c] : (side > 0 ? w->hi[c] - w->q[c] : 0);
        w->pins += side != 0;
    }
}

// Which way the task pulls pinned column c: +1 up, -1 down, 0 neither (docs/jacobian.md).
static int ik__pin_pull(const ik__jac_work *w, int m, int dof, int c, const ik_real *r, ik_real e2)
{
    ik_real g = 0, j2 = 0, ymax = 0, gy = 0, y2 = 0;
    int i;
    for (i = 0; i < m; i++) {
        g += w->jac[i * dof + c] * r[i];
        j2 += w->jac[i * dof + c] * w->jac[i * dof + c];
    }
    if (IK_FABS(g) > IK_SQRT(IK_EPSILON * j2 * e2))
        return g > 0 ? 1 : -1;
    for (i = 0; i < m && w->has_y; i++)
        ymax = IK_FABS(w->y[i]) > ymax ? IK_FABS(w->y[i]) : ymax;
    for (i = 0; i < m && ymax > 0; i++) {
        gy += w->jac[i * dof + c] * (w->y[i] / ymax);
        y2 += (w->y[i] / ymax) * (w->y[i] / ymax);
    }
    if (!(IK_FABS(gy) > IK_SQRT(IK_EPSILON * j2 * y2)))
        return 0;
    return gy > 0 ? 1 : -1;
}

// Whether pinned column c may be freed now: carried, or waiting with an unclamped step.
static bool ik__pin_releasable(const ik__jac_work *w, int c, bool clamped)
{
    return w->pinned[c] == 2 ||
           (!clamped && w->pinned[c] > 2 && w->pinned[c] <= (ik_real)(1 + IK__PIN_WAIT));
}

// Frees the releasable pins the task pulls inward; true if any (the step is then taken again).
static bool ik__pins_release(ik__jac_work *w, int m, int dof, const ik_real *e, ik_real max_step)
{
    ik_real *r = w->rv, e2 = 0;
    int i, c;
    bool clamped = false, any = false, freed = false;
    if (w->pins == 0)
        return false;
    for (c = 0; c < dof; c++)
        clamped = clamped || (w->pinned[c] == 0 && IK_FABS(w->dq[c]) > max_step);
    for (c = 0; c < dof && !any; c++)
        any = ik__pin_releasable(w, c, clamped);
    if (!any)
        return false;
    for (i = 0; i < m; i++) {
        r[i] = e[i];
        e2 += e[i] * e[i];
    }
    for (c = 0; c < dof; c++) {
        const ik_real dq = w->dq[c];
        if (w->pinned[c] != 0)
            continue;
        for (i = 0; i < m; i++)
            r[i] -= w->jac[i * dof + c] * dq;
    }
    for (c = 0; c < dof; c++) {
        int side =
            ik__pin_releasable(w, c, clamped) && w->lo[c] < w->hi[c] ? ik__limit_side(w, c) : 0;
        if (side != 0 && ik__pin_pull(w, m, dof, c, r, e2) == -side) {
            w->pinned[c] = 0;
            w->forced[c] = 1; // (a free joint's forced move is not read: marks it released)
            w->pins--;
            w->released++;
            freed = true;
        }
    }
    return freed;
}

// A limited ball joint's boundaries near its state v: up to two, as unit normals (outward) in
// v's coordinates and the distances to them (docs/limits.md, "Sliding along the boundary").
typedef struct ik__ball_bounds {
    ik_vec3 normal[2];
    ik_real dist[2];
    int count;
    ik_vec3 v;           // the state
    const ik_real *kept; // ik__ball_kept()'s values at v, or NULL
    ik_mat3 jexp;        // the map's Jacobian at v, once a bound needs it (have_jexp)
    bool have_jexp;
} ik__ball_bounds;

// Adds the bound G <= 0 if it is within band, from G and its gradient for a rotation w (limit
// axes) applied before the joint's: dG = grad . w; jexp^T maps it to v's coordinates.
static void ik__ball_bounds_add(ik__ball_bounds *b, const ik_ball_limit *limit, ik_vec3 grad,
                                ik_real value, ik_real band)
{
    ik_vec3 gw = ik_mat3_mul_vec3(limit->axes, grad), n;
    ik_real len = ik_vec3_length(gw);
    const ik_mat3 *j = &b->jexp;
    if (!(len > 0) || !(-value < band * len))
        return; // (farther than band, in angle)
    if (!b->have_jexp && b->kept)
        memcpy(&b->jexp.m[0][0], b->kept + 7, 9 * sizeof *b->kept);
    else if (!b->have_jexp)
        ik__expmap_rotation(b->v, &b->jexp);
    b->have_jexp = true;
    n = ik_vec3_make(j->m[0][0] * gw.x + j->m[1][0] * gw.y + j->m[2][0] * gw.z,
                     j->m[0][1] * gw.x + j->m[1][1] * gw.y + j->m[2][1] * gw.z,
                     j->m[0][2] * gw.x + j->m[1][2] * gw.y + j->m[2][2] * gw.z);
    len = ik_vec3_length(n);
    if (!(len > 0))
        return;
    b->normal[b->count] = ik_vec3_scale(n, 1 / len);
    b->dist[b->count++] = -value / len;
}

// The cone's bound G = |p|_ellipse - 1, p = (-b_y, b_x) g(b_z) the swing of the bone b = q z.
static void ik__ball_cone_bound(ik__ball_bounds *b, const ik_ball_limit *limit, ik_quat q,
                                ik_real band)
{
    const ik_real ca = limit->cone[0], cb = limit->cone[1];
    ik_vec3 bone = ik_vec3_make(2 * (q.x * q.z + q.w * q.y), 2 * (q.y * q.z - q.w * q.x),
                                1 - 2 * (q.x * q.x + q.y * q.y));
    const ik_real m = ik__clamp((1 + bone.z) / 2, 0, 1); // (c2^2)
    ik_real c2, g, dg, p1, p2, f, g1, g2;
    if ((ca >= 1 && cb >= 1) || ca < IK_R(1e-6) || cb < IK_R(1e-6) || m < IK_R(0.0025))
        return; // (no cone, a flat one, or the bone near reversed: projection alone)
    // f <= 0.5 surely, without roots or divisions: c2 >= m, so f^2 <= (b_y^2 / a^2 + b_x^2 / b^2)
    // / (4 m (1 + m)^2) (docs/limits.md, "Sliding along the boundary")
    if (IK__FAST && (bone.y * cb) * (bone.y * cb) + (bone.x * ca) * (bone.x * ca) <
                        IK_R(0.999) * m * (1 + m) * (1 + m) * (ca * cb) * (ca * cb))
        return;
    c2 = IK_SQRT(m);
    g = 1 / (2 * c2 * (1 + c2));
    p1 = -bone.y * g;
    p2 = bone.x * g;
    f = IK_SQRT((p1 / ca) * (p1 / ca) + (p2 / cb) * (p2 / cb));
    if (!(f > IK_R(0.5)))
        return;
    dg = -(1 + 2 * c2) / (8 * c2 * c2 * c2 * (1 + c2) * (1 + c2)); // dg / db_z
    g1 = p1 / (ca * ca * f);                                       // dG / dp
    g2 = p2 / (cb * cb * f);
    ik__ball_bounds_add( // (dG = grad_b G . (w x b) = (b x grad_b G) . w)
        b, limit,
        ik_vec3_cross(bone, ik_vec3_make(g2 * g, -g1 * g, (g2 * bone.x - g1 * bone.y) * dg)), f - 1,
        band);
}

// The twist's bound at its nearer end: tau - hi or lo - tau, tau = 2 atan2(q_z, q_w).
static void ik__ball_twist_bound(ik__ball_bounds *b, const ik_ball_limit *limit, ik_quat q,
                                 ik_real band)
{
    const ik_real lo = limit->twist[0], hi = limit->twist[1], n2 = q.z * q.z + q.w * q.w;
    const ik_real *h = limit->twist_half;
    const ik_real near = band / 2 + IK_R(2e-3);
    ik_real tau, k;
    ik_vec3 grad;
    if ((lo <= -IK_PI && hi >= IK_PI) || n2 < IK_R(0.0025))
        return; // (no twist limit, or a swing near a half turn: projection alone)
    // farther than band from both ends: sin((hi - tau) / 2), sin((tau - lo) / 2) (times |(z, w)|)
    // above band |grad| / 2 (|grad| |(z, w)| = |q| = 1), so the angles too (docs/limits.md,
    // "Sliding along the boundary")
    if (IK__FAST && h[3] * q.w - h[2] * q.z >= near && h[0] * q.z - h[1] * q.w >= near)
        return;
    k = 1 / n2;
    grad = ik_vec3_make((q.w * q.y + q.z * q.x) * k, (q.z * q.y - q.w * q.x) * k, 1);
    tau = 2 * IK_ATAN2(q.z, q.w);
    if (hi - tau <= tau - lo)
        ik__ball_bounds_add(b, limit, grad, tau - hi, band);
    else
        ik__ball_bounds_add(b, limit, ik_vec3_scale(grad, -1), lo - tau, band);
}

// Whether the rotation r (unit) is surely farther than band from both bounds, so that neither
// ik__ball_cone_bound() nor ik__ball_twist_bound() adds one: its angle theta gives f <=
// tan(theta / 4) / (the smaller semi-axis) < 0.5 and passes the twist's far test for every
// |q_z| <= |r_xyz| (docs/limits.md, "Sliding along the boundary").
static inline IK__ALWAYS_INLINE bool ik__ball_surely_far(const ik_ball_limit *limit, ik_quat r,
                                                         ik_real band)
{
    const ik_real *h = limit->twist_half, ca = limit->cone[0], cb = limit->cone[1];
    const ik_real s2 = r.x * r.x + r.y * r.y + r.z * r.z, w = IK_FABS(r.w);
    const ik_real cone = IK_R(0.49) * (ca < cb ? ca : cb) * (1 + w), near = band / 2 + IK_R(2e-3);
    const ik_real lo = -h[1] * w - near, hi = h[3] * w - near;
    return IK__FAST && ((ca >= 1 && cb >= 1) || s2 < cone * cone) &&
           ((limit->twist[0] <= -IK_PI && limit->twist[1] >= IK_PI) ||
            (lo > 0 && hi > 0 && s2 * (h[0] * h[0]) < lo * lo && s2 * (h[2] * h[2]) < hi * hi));
}

// The bounds of a ball joint at exponential map v within band (radians) of its boundary (kept:
// ik__ball_kept()'s rotation and Jacobian at v, or NULL).
static void ik__ball_bounds_kept(ik__ball_bounds *b, const ik_ball_limit *limit, const ik_real *v,
                                 ik_real band, const ik_real *kept)
{
    const ik_mat3 *a;
    ik_quat r, q;
    b->v = ik_vec3_make(v[0], v[1], v[2]);
    b->count = 0;
    b->kept = kept;
    b->have_jexp = false;
    r = kept ? ik_quat_make(kept[3], kept[4], kept[5], kept[6]) : ik__expmap_rotation(b->v, NULL);
    if (ik__ball_surely_far(limit, r, band))
        return;
    a = &limit->axes; // (a^T (x, y, z): in the limit's axes)
    q = ik_quat_make(a->m[0][0] * r.x + a->m[1][0] * r.y + a->m[2][0] * r.z,
                     a->m[0][1] * r.x + a->m[1][1] * r.y + a->m[2][1] * r.z,
                     a->m[0][2] * r.x + a->m[1][2] * r.y + a->m[2][2] * r.z, r.w);
    if (q.w < 0)
        q = ik__quat_scale(q, -1);
    ik__ball_cone_bound(b, limit, q, band);
    ik__ball_twist_bound(b, limit, q, band);
}

// The row vector j[0..2] <- j m.
static inline IK__ALWAYS_INLINE void ik__row3_mul(ik_real *j, const ik_mat3 *m)
{
    const ik_real j0 = j[0], j1 = j[1], j2 = j[2];
    j[0] = j0 * m->m[0][0] + j1 * m->m[1][0] + j2 * m->m[2][0];
    j[1] = j0 * m->m[0][1] + j1 * m->m[1][1] + j2 * m->m[2][1];
    j[2] = j0 * m->m[0][2] + j1 * m->m[1][2] + j2 * m->m[2][2];
}

// The 3 x 3 matrix at f (row-major), read one real at a time (no wide load of narrow stores).
static inline IK__ALWAYS_INLINE ik_mat3 ik__mat3_at(const ik_real *f)
{
    ik_mat3 m = { { { f[0], f[1], f[2] }, { f[3], f[4], f[5] }, { f[6], f[7], f[8] } } };
    return m;
}

// Whether column c is among goal g's columns (ascending: a binary search for the last one <= c,
// its steps without branches).
static bool ik__goal_has_column(const ik__jac_work *w, const ik__effector_goal *g, int c)
{
    const int *cols = w->goal_cols + g->cols_at;
    int n = g->col_count;
    if (n < 1)
        return false;
    while (n > 1) { // (the last column <= c is in cols[0..n - 1], if any)
        const int half = n / 2;
        cols = cols[half] <= c ? cols + half : cols;
        n -= half;
    }
    return *cols == c;
}

// J's columns c..c+2 <- J's times m: every row of a chain's J; of a skeleton's, the rows of the
// goals that hold column c (the others are 0 there and stay so).
static void ik__ball_columns_mul(ik__jac_work *w, int c, const ik_real *f)
{
    const ik_mat3 mf = ik__mat3_at(f), *m = &mf; // (a copy: J's stores cannot change it)
    int k, i;
    for (i = 0; i < w->m && !w->goals; i++)
        ik__row3_mul(w->jac + i * w->dof + c, m);
    for (k = 0; k < w->goal_count && w->goals; k++) {
        const ik__effector_goal *g = &w->goals[k];
        const int end = g->row + g->pos_rows + g->rot_rows;
        if (g->row < w->m && ik__goal_has_column(w, g, c))
            for (i = g->row; i < end && i < w->m; i++)
                ik__row3_mul(w->jac + i * w->dof + c, m);
    }
}

// A ball's columns c..c+2 in coordinates z = M dq, M's rows a tangent, then the bounds' unit
// normals (the second's, then the first's), so that z's last values are dq's components along the
// normals, bounded as a hinge's values are (docs/limits.md). Stored: M^-1, then M.
static void ik__ball_frame_make(ik__jac_work *w, int c, const ik__ball_bounds *b)
{
    const ik_vec3 n1 = b->normal[0];
    const bool corner = b->count > 1 && ik_vec3_length(ik_vec3_cross(n1, b->normal[1])) > IK_R(0.1);
    ik_vec3 n2 =
        corner
            ? b->normal[1]
            : ik__vec3_unit(ik_vec3_cross(n1, IK_FABS(n1.x) < IK_R(0.6) ? ik_vec3_make(1, 0, 0)
                                                                        : ik_vec3_make(0, 1, 0)));
    ik_vec3 t = ik__vec3_unit(ik_vec3_cross(n2, n1)), col[3]; // (ik_vec3_normalize()'s bits)
    ik_real det = ik_vec3_dot(t, ik_vec3_cross(n2, n1));
    // M^-1 (columns (n2 x n1, n1 x t, t x n2) / det), then M (rows t, n2, n1), row-major
    ik_real *f = w->frame + 6 * c;
    int k;
    col[0] = ik_vec3_scale(ik_vec3_cross(n2, n1), 1 / det);
    col[1] = ik_vec3_scale(ik_vec3_cross(n1, t), 1 / det);
    col[2] = ik_vec3_scale(ik_vec3_cross(t, n2), 1 / det);
    for (k = 0; k < 3; k++)
        f[k] = col[k].x, f[3 + k] = col[k].y, f[6 + k] = col[k].z;
    f[9] = t.x, f[10] = t.y, f[11] = t.z;
    f[12] = n2.x, f[13] = n2.y, f[14] = n2.z;
    f[15] = n1.x, f[16] = n1.y, f[17] = n1.z;
    w->hi[c + 1] = corner ? w->q[c + 1] + b->dist[1] : IK_INFINITY;
    w->hi[c + 2] = w->q[c + 2] + b->dist[0];
    ik__ball_columns_mul(w, c, f); // J <- J M^-1
}

// Limited balls on (or within a step of) their boundary: columns turned into frames whose last
// columns are bounded as hinges are, so that the active set slides them along it.
static void ik__ball_frames(ik__jac_work *w)
{
    const ik_chain *chain = w->chain;
    int c, jt;
    for (c = 0, jt = 0; jt < chain->joint_count; jt++) {
        const ik_joint *j = &chain->joints[jt];
        if (j->type == IK_JOINT_BALL && j->limit && w->sw[c] > 0) {
            ik__ball_bounds b;
            ik__ball_bounds_kept(
                &b, j->limit, w->q + c, IK_R(0.1),
                ik__ball_kept(w->goals ? w->tree.balls + IK__BALL_KEPT * jt : NULL, w->q + c));
            w->hi[c + 1] = w->hi[c + 2] = IK_INFINITY;
            if (b.count > 0)
                ik__ball_frame_make(w, c, &b);
        }
        c += ik_joint_type_dof(j->type);
    }
}

// The step back from the frame of the ball at column c: dq <- M^-1 z.
static void ik__ball_frame_dq(ik__jac_work *w, int c)
{
    const ik_real *f = w->frame + 6 * c; // (M^-1 row-major)
    const ik_real z0 = w->dq[c], z1 = w->dq[c + 1], z2 = w->dq[c + 2];
    int k;
    for (k = 0; k < 3; k++)
        w->dq[c + k] = f[3 * k] * z0 + f[3 * k + 1] * z1 + f[3 * k + 2] * z2;
}

// The step back from the frames: dq <- M^-1 z for each ball with a frame (its hi[c + 2] finite,
// until ik__ball_frames() makes them again).
static void ik__ball_frames_dq(ik__jac_work *w)
{
    const ik_chain *chain = w->chain;
    int c, jt;
    for (c = 0, jt = 0; jt < chain->joint_count; jt++) {
        const ik_joint *j = &chain->joints[jt];
        if (j->type == IK_JOINT_BALL && j->limit && w->hi[c + 2] < IK_INFINITY)
            ik__ball_frame_dq(w, c);
        c += ik_joint_type_dof(j->type);
    }
}

// Back from the frames: the step dq <- M^-1 z and J <- J M.
static void ik__ball_frames_undo(ik__jac_work *w)
{
    const ik_chain *chain = w->chain;
    int c, jt;
    for (c = 0, jt = 0; jt < chain->joint_count; jt++) {
        const ik_joint *j = &chain->joints[jt];
        if (j->type == IK_JOINT_BALL && j->limit && w->hi[c + 2] < IK_INFINITY) {
            ik__ball_frame_dq(w, c);
            ik__ball_columns_mul(w, c, w->frame + 6 * c + 9);
        }
        c += ik_joint_type_dof(j->type);
    }
}

// A limited ball's yaw, pitch and roll (IK_BALL_EULER) brought within its limits.
static void ik__ypr_into_limit(const ik_ball_limit *limit, ik_real *ypr)
{
    ik_quat r = ik__ball_rotation(ypr, true);
    if (!ik_ball_limit_contains(limit, r)) {
        ik_vec3 e =
            ik_mat3_to_euler(ik_quat_to_mat3(ik_ball_limit_project(limit, r)), IK_EULER_YXZ);
        ypr[0] = e.x, ypr[1] = e.y, ypr[2] = e.z;
    }
}

// q + dq in the solver's parameterization (balls' exponential maps composed on the manifold).
// A ball's exponential map v moved by d on the manifold, into its limit (kept: its rotation and
// the map's Jacobian at v from ik__ball_kept(), or NULL).
static ik_vec3 ik__ball_moved(const ik_joint *j, ik_vec3 v, ik_vec3 d, const ik_real *kept)
{
    ik_mat3 jexp;
    ik_quat at, r;
    if (kept) {
        memcpy(&jexp.m[0][0], kept + 7, 9 * sizeof *kept);
        at = ik_quat_make(kept[3], kept[4], kept[5], kept[6]);
    } else {
        at = ik__expmap_rotation(v, &jexp);
    }
    r = ik_quat_mul(ik__expmap_step(ik_mat3_mul_vec3(jexp, d)), at);
    // projected (ik__ball_frames() made the step slide); surely within: as it would return r
    if (j->limit && !(ik__abs_bits(ik_quat_dot(r, r) - 1) <= ik__abs_bits(16 * IK_EPSILON) &&
                      ik__quat_surely_within(j->limit, r)))
        r = ik_ball_limit_project(j->limit, r);
    return ik__quat_log(r); // (its scale cancels: atan2(k s, k w) / (k s) times k (x, y, z))
}

// (balls: a skeleton's kept ball values, ik__tree's, or NULL)
static void ik__jacobian_apply(const ik_chain *chain, bool euler, const ik_real *balls,
                               const ik_real *q, const ik_real *dq, ik_real scale_step,
                               ik_real *out)
{
    int jt, c = 0;
    for (jt = 0; jt < chain->joint_count; jt++) {
        const ik_joint *j = &chain->joints[jt];
        if (j->type == IK_JOINT_BALL && !euler) {
            ik_vec3 v = ik_vec3_make(q[c], q[c + 1], q[c + 2]);
            ik_vec3 d = ik_vec3_scale(ik_vec3_make(dq[c], dq[c + 1], dq[c + 2]), scale_step);
            if (d.x != 0 || d.y != 0 || d.z != 0) // a joint that does not move keeps its values
                v = ik__ball_moved(j, v, d,
                                   ik__ball_kept(balls ? balls + IK__BALL_KEPT * jt : NULL, q + c));
            out[c] = v.x, out[c + 1] = v.y, out[c + 2] = v.z;
            c += 3;
        } else {
            int nd = ik_joint_type_dof(j->type), t;
            for (t = 0; t < nd; t++) {
                out[c + t] = q[c + t] + scale_step * dq[c + t];
                if (nd == 1)
                    out[c + t] = ik__clamp(out[c + t], j->lo, j->hi);
            }
            if (j->type == IK_JOINT_BALL && j->limit) // (IK_BALL_EULER: projected, no sliding)
                ik__ypr_into_limit(j->limit, out + c);
            c += nd;
        }
    }
}

// The checks of ik_jacobian_opts (the rest pose's values apart).
static bool ik__jacobian_opts_valid(const ik_jacobian_opts *o)
{
    return o->_valid == IK__JACOBIAN_VALID && (int)o->method >= 0 && (int)o->method <= 3 &&
           (int)o->ball_param >= 0 && (int)o->ball_param <= 1 && o->max_iterations >= 1 &&
           ik__bounded(o->tolerance) && o->tolerance >= 0 && ik__bounded(o->rotation_tolerance) &&
           o->rotation_tolerance >= 0 && ik__bounded(o->orientation_weight) &&
           o->orientation_weight >= 0 && ik__bounded(o->damping) && o->damping >= 0 &&
           ik__finite(o->rcond) && o->rcond >= 0 && o->rcond < 1 && !ik__is_nan(o->max_step) &&
           o->max_step > 0 && o->max_joint_step > 0 && ik__bounded(o->max_joint_step) &&
           ik__finite(o->rest_gain) && o->rest_gain >= 0 && o->rest_gain <= 1 &&
           ik__finite(o->min_improvement) && o->min_improvement >= 0 && o->min_improvement < 1;
}

// The work arrays in scratch for w->rows rows (base: need reals, see ik__jacobian_rows_reals();
// the joint table's at w->rv + rows, made by the caller).
static void ik__jacobian_layout(ik__jac_work *w, ik_real *base, int dof)
{
    const int rows = w->rows;
    w->jac = base;
    w->jac_trial = w->jac + rows * dof;
    w->jw = w->jac_trial + rows * dof;
    w->v = w->jw + rows * dof;
    w->dq = w->v + rows * dof;
    w->q = w->dq + dof;
    w->trial = w->q + dof;
    w->pinned = w->trial + dof;
    w->forced = w->pinned + dof;
    w->sw = w->forced + dof;
    w->lo = w->sw + dof;
    w->hi = w->lo + dof;
    w->frame = w->hi + dof;
    w->u = w->frame + 6 * dof;
    w->normal = w->u;
    w->factor = w->u + rows * rows;
    w->damped = w->factor + rows * rows;
    w->s = w->damped + rows * rows;
    w->at.e0 = w->s + rows;
    w->y = w->at.e0 + rows;
    w->e = w->y + rows;
    w->e1 = w->e + rows;
    w->rv = w->e1 + rows;
}

// The state in the solver's parameterization, clamped; per column sqrt(weight) and limits.
static void ik__jacobian_load(ik__jac_work *w, const ik_real *q_io)
{
    const ik_chain *chain = w->chain;
    ik_real *q = w->q, *sws = w->sw, *lo = w->lo, *hi = w->hi; // (in registers: no reload)
    bool unit_weights = true, ball_limits = false;
    int c, jt, t, frozen = 0;
    for (c = 0, jt = 0; jt < chain->joint_count; jt++) {
        const ik_joint *j = &chain->joints[jt];
        const int nd = ik_joint_type_dof(j->type);
        const ik_real sw = j->weight == 1 ? 1 : IK_SQRT(ik__clamp(j->weight, 0, IK_MAX_MAGNITUDE));
        unit_weights = unit_weights && (nd == 0 || sw == 1);
        frozen += sw == 0 ? nd : 0;
        if (nd == 1) {
            sws[c] = sw;
            lo[c] = j->lo;
            hi[c] = j->hi;
        } else { // (a ball's: no range)
            for (t = 0; t < nd; t++) {
                sws[c + t] = sw;
                lo[c + t] = -IK_INFINITY;
                hi[c + t] = IK_INFINITY;
            }
        }
        if (j->type == IK_JOINT_BALL && w->euler) {
            ik_vec3 ypr = ik__expmap_to_ypr(q_io + c);
            q[c] = ypr.x, q[c + 1] = ypr.y, q[c + 2] = ypr.z;
            if (j->limit)
                ik__ypr_into_limit(j->limit, q + c);
            c += 3;
        } else if (j->type == IK_JOINT_BALL && j->limit) { // (brought into its limits)
            ik_vec3 v = ik_vec3_make(q_io[c], q_io[c + 1], q_io[c + 2]);
            if (!ik__expmap_surely_within(j->limit, q_io + c)) {
                ik_quat r = ik_quat_from_expmap(v);
                if (!ik_ball_limit_contains(j->limit, r))
                    v = ik__quat_log(ik_ball_limit_project(j->limit, r));
            }
            q[c] = v.x, q[c + 1] = v.y, q[c + 2] = v.z;
            ball_limits = true;
            c += 3;
        } else {
            for (t = 0; t < nd; t++, c++)
                q[c] = nd == 1 ? ik__clamp(q_io[c], j->lo, j->hi) : q_io[c];
        }
    }
    w->unit_weights = unit_weights, w->frozen = frozen, w->ball_limits = ball_limits;
}

// ik_jacobian_solve()'s policies: the method's own step, pins carried, 20 halvings, 3 nudges.
static const ik__policy ik__jacobian_policy = {
    false, false, false, 20, false, 3, -1, 0, 0, false
};

// w in scratch (base) for a valid problem: arrays, constants, q_io, ik_jacobian_solve()'s policies.
static void ik__jacobian_init(ik__jac_work *w, const ik_chain *chain, const ik_target *target,
                              const ik_jacobian_opts *o, int dof, ik_real *base,
                              const ik_real *q_io)
{
    ik_real reach = ik__chain_reach(chain);
    w->chain = chain;
    w->goals = NULL; // (a chain's solve)
    w->goal_count = 0;
    w->jac_stale = false;
    w->first_rows = w->full_rows = 0;
    w->o = o;
    w->goal.pos = target->pos;
    w->goal.use_rotation = target->use_rotation;
    w->goal.rot = ik_quat_to_mat3(ik_quat_mul(target->rot, ik_quat_conjugate(chain->tip.rot)));
    w->dof = dof;
    w->m = target->use_rotation ? 6 : 3;
    w->rows = IK__CHAIN_ROWS;
    w->euler = o->ball_param == IK_BALL_EULER;
    ik__jacobian_layout(w, base, dof);
    w->table = ik__joint_table_make(chain, w->rv + w->rows);
    w->scale = ik__length_scale(reach);
    w->ow = o->orientation_weight > 0 ? o->orientation_weight
                                      : w->scale / (ik_real)ik__movable_joints(chain);
    ik__jacobian_load(w, q_io);
    w->within_reach = !ik__beyond_reach(chain, target->pos, reach, o->tolerance);
    w->jac_bound = ik__jacobian_bound(w, reach) * (w->ball_limits ? 2 : 1); // (frames: sqrt(3))
    w->floor2 = (16 * IK_EPSILON * w->scale) * (16 * IK_EPSILON * w->scale);
    w->policy = ik__jacobian_policy;
    w->turn = NULL;
}

// A run from the state in w->q: every joint free, no nudge taken, the error and Jacobian there.
static void ik__jacobian_start(ik__jac_work *w)
{
    int c;
    for (c = 0; c < w->dof; c++)
        w->pinned[c] = w->forced[c] = 0;
    w->pins = w->released = w->kicks = 0;
    w->chord_ready = w->chord_first = false;
    w->chord_factor = NULL;
    w->at.err = ik__task_error(w, w->q, w->jac, w->at.e0);
    w->at.best_err = 0;
    w->at.idle = 0;
}

// A solve's inputs after the chain (dof), q and the target checked, in the order of their status
// codes: the options (opts_valid) and rest pose, the scratch (its size: need, or 0 to check later).
static ik_result ik__solver_validate_rest(const ik_chain *chain, int dof, const ik_real *q_io,
                                          bool opts_valid, const ik_real *rest, const void *scratch,
                                          size_t scratch_size, size_t need,
                                          const ik_solve_info *info)
{
    int c;
    if (!opts_valid)
        return IK_ERR_BAD_OPTS;
    for (c = 0; rest && c < dof; c++)
        if (!ik__bounded(rest[c]))
            return IK_ERR_BAD_ARG;
    if (!scratch)
        return IK_ERR_NULL_ARG;
    if (ik__solver_overlap(chain, q_io, dof, rest, info, scratch, scratch_size))
        return IK_ERR_BAD_ARG;
    return scratch_size < need ? IK_ERR_SCRATCH_TOO_SMALL : IK_OK;
}

// A solve's inputs after the chain (dof) and q checked, in the order of their status codes: the
// target (with a rotation or not as pose says, unless < 0), the options (opts_valid) and rest
// pose, the scratch (its size: need, or 0 to check later).
static ik_result ik__solver_validate(const ik_chain *chain, int dof, const ik_real *q_io,
                                     const ik_target *target_in, int pose, bool opts_valid,
                                     const ik_real *rest, const void *scratch, size_t scratch_size,
                                     size_t need, const ik_solve_info *info, ik_target *target)
{
    ik_result r = ik__target_prepare(target_in, target);
    if (r != IK_OK)
        return r;
    if (pose >= 0 && target->use_rotation != (pose != 0))
        return IK_ERR_BAD_ARG;
    return ik__solver_validate_rest(chain, dof, q_io, opts_valid, rest, scratch, scratch_size, need,
                                    info);
}

// Checks the input and sets up w in scratch for a run.
static ik_result ik__jacobian_setup(ik__jac_work *w, const ik_chain *chain,
                                    const ik_target *target_in, const ik_jacobian_opts *o,
                                    const ik_real *q_io, void *scratch, size_t scratch_size,
                                    const ik_solve_info *info)
{
    ik_target target;
    ik_real *base;
    size_t need;
    int dof;
    ik_result r = ik__chain_state_validate(chain, q_io, &dof);
    if (r != IK_OK)
        return r;
    r = ik__solver_validate(chain, dof, q_io, target_in, -1, ik__jacobian_opts_valid(o), o->rest,
                            scratch, scratch_size, 0, info, &target);
    if (r != IK_OK)
        return r;
    need = ik__jacobian_reals(dof, ik__table_reals(chain));
    base = ik__scratch_reals(scratch, scratch_size, need);
    if (!base || scratch_size < (need + 1) * sizeof(ik_real))
        return IK_ERR_SCRATCH_TOO_SMALL; // (ik_jacobian_scratch_size without a second validation)
    ik__jacobian_init(w, chain, &target, o, dof, base, q_io);
    ik__jacobian_start(w);
    return IK_OK;
}

// e = e0 (m rows) with its parts (3 rows; a skeleton's effectors' 3 position rows and 3 or 2
// rotation rows) each no longer than max_step (dragging).
static void ik__clamp_error(const ik__jac_work *w, ik_real max_step, ik_real *e)
{
    int i, k, n;
    ik__rows_copy(e, w->at.e0, w->m);
    for (k = 0; k + 1 < w->m; k += n) { // (a skeleton's: each effector's position, rotation)
        ik_real len;
        n = 3;
        for (i = 0; i < w->goal_count; i++)
            if (k == w->goals[i].row + w->goals[i].pos_rows && w->goals[i].rot_rows > 0)
                n = w->goals[i].rot_rows;
        len = n == 3 ? IK_SQRT(e[k] * e[k] + e[k + 1] * e[k + 1] + e[k + 2] * e[k + 2])
                     : ik__rows_length(e + k, n, 1);
        if (len > max_step)
            for (i = k; i < k + n; i++)
                e[i] *= max_step / len;
    }
}

// Scales the free joints' step to max_joint_step, then pins those that would cross a limit.
static bool ik__pin_crossings(ik__jac_work *w, ik_real *e)
{
    const int dof = w->dof;
    const ik_real *turn = w->turn; // (never pinned)
    ik_real emax = 0;
    bool pinned_one = false;
    int c, i;
    for (c = 0; c < dof; c++) { // (the largest free step, without a branch on the data)
        ik_real step = IK_FABS(w->dq[c]) * (w->pins == 0 || w->pinned[c] == 0 ? 1 : 0);
        emax = step > emax ? step : emax;
    }
    if (emax > w->o->max_joint_step)
        for (c = 0; c < dof; c++)
            if (w->pinned[c] == 0)
                w->dq[c] *= w->o->max_joint_step / emax;
    for (c = 0; c < dof; c++) {
        ik_real to = w->q[c] + w->dq[c],
                lim = to > w->hi[c] ? w->hi[c] : (to < w->lo[c] ? w->lo[c] : to);
        if (w->pinned[c] == 0 && lim != to && !(turn && turn[c] != 0)) { // (balls: none)
            w->pinned[c] = w->forced[c] != 0 ? 2 + IK__PIN_WAIT : 1;
            w->pins++;
            w->forced[c] = lim - w->q[c];
            for (i = 0; i < w->m; i++)
                e[i] -= w->jac[i * dof + c] * w->forced[c];
            pinned_one = true;
        }
    }
    return pinned_one;
}

// The arm's DLS step (docs/jacobian.md, "The arm's damping"); false if no damping factors.
static bool ik__lm_step(ik__jac_work *w, const ik_real *e)
{
    const int m = w->m, dof = w->dof;
    const bool plain = ik__unweighted(w);
    const ik_real reach2 = w->scale * w->scale, damping2 = w->o->damping * w->o->damping;
    ik_real *a = w->normal, *l = w->factor, *y = w->rv, *wa = w->jw;
    ik_real lambda2 = damping2 > 0 ? damping2 : w->at.err / 20 + IK_R(1e-9) * reach2;
    int r, c;
    ik__normal_weighted(w, plain, a);
    while (!ik__ldlt(a, lambda2, m, l)) {
        if (!ik__finite(lambda2) || lambda2 > reach2 * IK_R(1e6))
            return false;
        lambda2 = lambda2 * 100 + IK_EPSILON * reach2;
    }
    for (r = 0; r < m; r++)
        y[r] = e[r];
    ik__ldlt_solve(l, m, y);
    ik__jacobian_tmul(w->jac, y, m, dof, w->dq);
    for (c = 0; c < dof && !plain; c++)
        w->dq[c] = w->pinned[c] != 0 ? w->forced[c] : wa[c] * w->dq[c];
    return true;
}

// Rows of Z^T = C L^-T and of (D^-1 Z)^T (z0, d0 and z1, d1) from two rows of C (x0, x1), each
// L^-1 x by ik__ldlt_forward()'s sums (l: L D L^T of n rows), two values at a time.
static void ik__forward_rows(const ik_real *l, int n, const ik_real *x0, const ik_real *x1,
                             ik_real *z0, ik_real *z1, ik_real *d0, ik_real *d1)
{
    int j, k;
    for (j = 0; j < n; j += 2) {
        const bool two = j + 1 < n; // (else value j alone)
        const ik_real *lj = l + j * n, *lj1 = two ? lj + n : lj;
        ik_real a = x0[j], b = x1[j], a1 = two ? x0[j + 1] : 0, b1 = two ? x1[j + 1] : 0;
        ik_real odd_a = 0, odd_b = 0, odd_a1 = 0, odd_b1 = 0; // (the odd k's terms)
        for (k = 0; k < j; k += 2) {
            a -= lj[k] * z0[k], odd_a -= lj[k + 1] * z0[k + 1];
            b -= lj[k] * z1[k], odd_b -= lj[k + 1] * z1[k + 1];
            a1 -= lj1[k] * z0[k], odd_a1 -= lj1[k + 1] * z0[k + 1];
            b1 -= lj1[k] * z1[k], odd_b1 -= lj1[k + 1] * z1[k + 1];
        }
        a += odd_a, b += odd_b;
        z0[j] = a, z1[j] = b, d0[j] = a * lj[j], d1[j] = b * lj[j];
        if (!two)
            return;
        a1 = (a1 + odd_a1) - lj1[j] * a, b1 = (b1 + odd_b1) - lj1[j] * b; // (k = j for j + 1)
        z0[j + 1] = a1, z1[j + 1] = b1, d0[j + 1] = a1 * lj1[j + 1], d1[j + 1] = b1 * lj1[j + 1];
    }
}

// A = J W J^T (m x m) made for this Jacobian with the weights in jw (1 where w->normal_unit)
// brought to W now, the weights into jw: A += (w_c now - w_c before) j_c j_c^T for each column
// whose weight changed, a pin made or freed (docs/skeletons.md, "Cost").
static void ik__normal_reweigh(ik__jac_work *w, ik_real *a)
{
    const int dof = w->dof, m = w->m;
    int c, r, s;
    for (c = 0; c < dof; c++) {
        const ik_real now = w->sw[c] * w->sw[c] * (ik_real)(w->pinned[c] == 0);
        const ik_real delta = now - (w->normal_unit ? 1 : w->jw[c]);
        w->jw[c] = now;
        for (r = 0; r < m && delta != 0; r++) {
            const ik_real jr = w->jac[r * dof + c] * delta;
            for (s = 0; s <= r && jr != 0; s++)
                a[r * m + s] += jr * w->jac[s * dof + c];
            for (s = 0; s < r && jr != 0; s++)
                a[s * m + r] = a[r * m + s];
        }
    }
}

// The priorities' matrices (docs/skeletons.md, "Priorities") in w->proj: A = J W J^T over all m
// rows (W the free columns' weights, also into w->jw), A1 = J1 W J1^T (priority 0's m1 rows)
// factored L D L^T (shifted as little as makes it factor), and Z = L^-1 C^T, C = J2 W J1^T (A's
// block), so that D = C A1^-1 = Z^T D^-1 L^-1: Z^T and (D^-1 Z)^T (m2 x m1 each) after the factor.
// false: A1 has no factor at any shift (entries that overflowed): none of them made.
static bool ik__priority_projector(ik__jac_work *w, int m1)
{
    const int dof = w->dof, m = w->m, m2 = m - m1, rows = w->rows;
    ik_real *full = w->proj, *l1 = full + rows * rows, *z = l1 + rows * rows, shift = 0, tr = 0;
    int c, r;
    const bool kept = IK__FAST && w->normal_kept; // (the active set's next pass: the same Jacobian)
    if (kept)
        ik__normal_reweigh(w, full);
    for (c = 0; c < dof && !kept && !ik__unweighted(w); c++) // (W = I: none)
        w->jw[c] = w->sw[c] * w->sw[c] * (ik_real)(w->pinned[c] == 0);
    if (!kept)
        ik__skeleton_normal(w, w->jac, 0, m, ik__unweighted(w) ? NULL : w->jw, full);
    w->normal_kept = true, w->normal_unit = ik__unweighted(w);
    for (r = 0; r < m1; r++)
        tr += full[r * m + r];
    while (!ik__ldlt_lda(full, m, shift, m1, l1)) { // (a subnormal trace too)
        shift = shift * 100 + IK_EPSILON * (tr > 0 ? tr : 1) + IK__REAL_MIN;
        if (!ik__finite(shift))
            return false;
    }
    w->a1_unshifted = shift == 0;
    for (c = 0; c < m2; c += 2) { // (two rows of C at a time, a last one repeated)
        const int c1 = c + 1 < m2 ? c + 1 : c;
        ik__forward_rows(l1, m1, full + (m1 + c) * m, full + (m1 + c1) * m, z + c * m1, z + c1 * m1,
                         z + (m2 + c) * m1, z + (m2 + c1) * m1);
    }
    return true;
}

// out (t x dof) -= x^T J1 (x: m1 x t), J1 priority 0's rows (packed), on each effector's columns.
static void ik__priority_sub(const ik__jac_work *w, const ik_real *x, int t, ik_real *out)
{
    const int dof = w->dof, m1 = w->first_rows;
    ik_real *acc = w->v; // (free here)
    int k, r, i, u;
    for (k = 0; k < w->goal_count; k++) {
        const ik__effector_goal *g = &w->goals[k];
        const int *cols = w->goal_cols + g->cols_at, end = g->row + g->pos_rows + g->rot_rows;
        for (u = 0; u < t && g->row < m1; u++) {
            for (i = 0; i < g->col_count; i++)
                acc[i] = 0;
            for (r = g->row; r < end; r += 3) { // (3 rows at a time, each added in turn)
                const int nr = end - r < 3 ? end - r : 3;
                const ik_real *j0 = w->packed + r * dof, *j1 = j0 + dof, *j2 = j1 + dof;
                const ik_real x0 = x[r * t + u], x1 = nr > 1 ? x[(r + 1) * t + u] : 0,
                              x2 = nr > 2 ? x[(r + 2) * t + u] : 0;
                for (i = 0; i < g->col_count && nr == 3; i++)
                    acc[i] = ((acc[i] + x0 * j0[i]) + x1 * j1[i]) + x2 * j2[i];
                for (i = 0; i < g->col_count && nr == 2; i++)
                    acc[i] = (acc[i] + x0 * j0[i]) + x1 * j1[i];
                for (i = 0; i < g->col_count && nr == 1; i++)
                    acc[i] += x0 * j0[i];
            }
            for (i = 0; i < g->col_count; i++)
                out[u * dof + cols[i]] -= acc[i];
        }
    }
}

// x <- N1 x = x - W J1^T A1^-1 J1 x (ik__priority_projector(); u and the product in scratch).
static void ik__priority_null(const ik__jac_work *w, ik_real *x)
{
    const int dof = w->dof, m1 = w->first_rows, rows = w->rows;
    ik_real *u = w->rv, *wx = w->jw + dof; // (jw's rows past the first: free here)
    int i;
    ik__goals_mul(w, 0, m1, NULL, x, u); // u = J1 x
    ik__ldlt_solve(w->proj + rows * rows, m1, u);
    memset(wx, 0, (size_t)dof * sizeof *wx);
    ik__priority_sub(w, u, 1, wx); // -J1^T u
    for (i = 0; i < dof; i++)
        x[i] += ik__unweighted(w) ? wx[i] : w->jw[i] * wx[i];
}

// The 2 x 2 block of ik__priority_normal() at rows r, r1 and columns c, c1 (r1 and c1 the next, or
// r and c again past the matrix; c <= r) from A22 (stride lda), Z^T and (D^-1 Z)^T (m2 x m1): the
// entries in the lower triangle, each summed over k in order, and mirrored.
static void ik__schur_block(const ik_real *a22, int lda, const ik_real *zt, const ik_real *zdt,
                            int m1, int m2, int r, int c, ik_real *a)
{
    const int r1 = r + 1 < m2 ? r + 1 : r, c1 = c + 1 < m2 ? c + 1 : c;
    const ik_real *dr = zdt + r * m1, *dr1 = zdt + r1 * m1, *zc = zt + c * m1, *zc1 = zt + c1 * m1;
    ik_real x0 = a22[r * lda + c], x1 = a22[r * lda + c1], x2 = a22[r1 * lda + c],
            x3 = a22[r1 * lda + c1];
    int k;
    for (k = 0; k < m1; k++) {
        x0 -= dr[k] * zc[k], x1 -= dr[k] * zc1[k];
        x2 -= dr1[k] * zc[k], x3 -= dr1[k] * zc1[k];
    }
    a[r * m2 + c] = a[c * m2 + r] = x0;
    if (c1 <= r) // (else above the diagonal)
        a[r * m2 + c1] = a[c1 * m2 + r] = x1;
    a[r1 * m2 + c] = a[c * m2 + r1] = x2;
    a[r1 * m2 + c1] = a[c1 * m2 + r1] = x3;
}

// The normal matrix of priority 1's projected rows J2 N1: J2 W J2^T - D C^T = A22 - Z^T D^-1 Z,
// from A's block, Z^T and (D^-1 Z)^T (ik__priority_projector(); wa as it had them), in blocks of
// 2 x 2.
static void ik__priority_normal(const ik__jac_work *w, const ik_real *wa, ik_real *a)
{
    const int m1 = w->first_rows, m2 = w->m, m = m1 + m2, rows = w->rows;
    const ik_real *full = w->proj, *zt = full + 2 * rows * rows, *zdt = zt + m2 * m1;
    int r, s;
    (void)wa;
    for (r = 0; r < m2; r += 2)
        for (s = 0; s <= r; s += 2)
            ik__schur_block(full + m1 * m + m1, m, zt, zdt, m1, m2, r, s, a);
}

// Priority 1's projected rows J2 N1 = J2 - D J1 made in jac_trial (D^T = L^-T D^-1 Z in w->normal,
// free until the step that needs them), where ik__priority_step() left them to the goals and the
// step needs them whole (none to make otherwise).
static void ik__priority_rows(ik__jac_work *w)
{
    const int dof = w->dof, m1 = w->first_rows, m2 = w->m;
    const ik_real *l1, *zt;
    ik_real *dt = w->normal;
    int i, k, c;
    if (w->jac || !w->goals)
        return;
    l1 = w->proj + w->rows * w->rows, zt = l1 + w->rows * w->rows;
    for (i = 0; i < m1; i++) // Z from Z^T
        for (c = 0; c < m2; c++)
            dt[i * m2 + c] = zt[c * m1 + i];
    for (i = m1 - 1; i >= 0; i--) // each column's sums as ik__ldlt_backward()'s
        for (c = 0; c < m2; c++) {
            ik_real s = dt[i * m2 + c] * l1[i * m1 + i];
            for (k = m1 - 1; k > i; k--)
                s -= l1[k * m1 + i] * dt[k * m2 + c];
            dt[i * m2 + c] = s;
        }
    w->jac = w->jac_trial;
    memcpy(w->jac, w->jac_full + m1 * dof, (size_t)(m2 * dof) * sizeof *w->jac);
    ik__priority_sub(w, dt, m2, w->jac);
}

// out = B x for B's n rows of k values (stride ldb), two rows at a time (a last one repeated).
static void ik__block_mul(const ik_real *b, int ldb, int n, int k, const ik_real *x, ik_real *out)
{
    int r, i;
    for (r = 0; r < n; r += 2) {
        const int r1 = r + 1 < n ? r + 1 : r;
        const ik_real *b0 = b + r * ldb, *b1 = b + r1 * ldb;
        ik_real s = 0, s1 = 0, odd = 0, odd1 = 0; // (odd i apart)
        for (i = 0; i + 1 < k; i += 2) {
            s += b0[i] * x[i], odd += b0[i + 1] * x[i + 1];
            s1 += b1[i] * x[i], odd1 += b1[i + 1] * x[i + 1];
        }
        if (i < k)
            s += b0[i] * x[i], s1 += b1[i] * x[i];
        out[r] = s + odd, out[r1] = s1 + odd1;
    }
}

// Two priorities (docs/skeletons.md, "Priorities"): dq1 for priority 0's rows alone, then priority
// 1's rows J2 N1 for the error left, e2 - J2 dq1, that step projected by N1, the sum. J2 N1 is
// applied through the goals' rows and D where the normal equations serve (the speed path).
static void ik__priority_step(const ik_jacobian_opts *o, ik__jac_work *w, const ik_real *e)
{
    const int m = w->m, m1 = w->first_rows, m2 = m - m1, dof = w->dof;
    const bool normal_eqs = o->method == IK_JACOBIAN_DLS || o->method == IK_JACOBIAN_PINV;
    ik_real *jac = w->jac, *dq1 = w->dq1, *e2 = w->e1;
    ik_jacobian_opts first = *o, second = *o;
    int c, r;
    first.rest = NULL;                    // (the rest pose pulls in what both leave free)
    if (!ik__priority_projector(w, m1)) { // (no step: the pinned columns' forced moves only)
        for (c = 0; c < dof; c++)
            w->dq[c] = w->pins > 0 && w->pinned[c] != 0 ? w->forced[c] : 0;
        w->has_y = w->y_in_rv = w->n1_folded = false;
        w->chord_factor = NULL;
        return;
    }
    w->m = m1, w->full_rows = m;
    ik__jacobian_step(w->chain, &first, w, m1, dof, e, w->scale, w->euler);
    w->m = m, w->full_rows = 0;
    for (c = 0; c < dof; c++)
        dq1[c] = w->pins > 0 && w->pinned[c] != 0 ? 0 : w->dq[c];
    if (IK__FAST && w->y_in_rv) // J2 dq1 = J2 W J1^T y1 = C y1 (A's block)
        ik__block_mul(w->proj + m1 * m, m, m2, m1, w->rv, e2);
    else
        ik__goals_mul(w, m1, m, NULL, dq1, e2);
    for (r = 0; r < m2; r++) // e2 - J2 dq1
        e2[r] = e[m1 + r] - e2[r];
    second.rcond = o->rcond > 64 * IK_EPSILON ? o->rcond : 64 * IK_EPSILON; // (J2 N1's rank:
    // its singular values below that are priority 0's rows' rounding, in float above 1e-9)
    w->jac_full = jac, w->jac = NULL, w->m = m2, w->by_goals = false;
    if (!IK__FAST || !normal_eqs)
        ik__priority_rows(w);
    ik__jacobian_step(w->chain, &second, w, m2, dof, e2, w->scale, w->euler);
    w->jac = jac, w->m = m, w->by_goals = true;
    for (c = 0; c < dof && !ik__unweighted(w); c++) { // (W as the projector has it; the forced
        w->jw[c] = w->sw[c] * w->sw[c] * (ik_real)(w->pinned[c] == 0); // moves put back below)
        w->dq[c] = w->pinned[c] != 0 ? 0 : w->dq[c];
    }
    if (!w->n1_folded) // (else in the step already)
        ik__priority_null(w, w->dq);
    for (c = 0; c < dof; c++)
        w->dq[c] = w->pins > 0 && w->pinned[c] != 0 ? w->forced[c] : dq1[c] + w->dq[c];
    w->has_y = false;
}

// The method's step for the error e: both priorities' where a skeleton has two.
static void ik__task_step(const ik_jacobian_opts *o, ik__jac_work *w, const ik_real *e)
{
    if (w->first_rows > 0)
        ik__priority_step(o, w, e);
    else
        ik__jacobian_step(w->chain, o, w, w->m, w->dof, e, w->scale, w->euler);
}

// The step for the clamped error e, limits as an active set (docs/jacobian.md); false: none.
static bool ik__active_set_step(ik__jac_work *w, ik_real *e)
{
    int pass;
    bool ok = true;
    if (w->ball_limits)
        ik__ball_frames(w);
    ik__pins_carry(w, w->dof);
    w->normal_kept = false; // (made in the first pass, then changed by the pins)
    for (pass = 0; pass <= 2 * w->dof && ok; pass++) {
        if (!w->policy.lm_damping)
            ik__task_step(w->o, w, e);
        else
            ok = ik__lm_step(w, e);
        if (ok && !w->policy.fresh_pins &&
            ik__pins_release(w, w->m, w->dof, e, w->o->max_joint_step))
            continue;
        if (!ok || !ik__pin_crossings(w, e))
            break;
    }
    if (pass > 2 * w->dof) // (the pins changed after the last step: its factors are not theirs)
        w->chord_factor = NULL;
    if (w->ball_limits)
        ik__ball_frames_undo(w);
    w->normal_kept = false;
    return ok;
}

static ik_real ik__branch_reach(const ik_chain *chain, const int *parents, int joint,
                                ik_vec3 offset, int *out_root);

// Whether every position goal is within what the joints between it and its branch's root reach
// (a skeleton's, made the first time it is asked).
static bool ik__reaches(ik__jac_work *w)
{
    int k, root = 0;
    for (k = 0; w->within_reach < 0 && k < w->goal_count; k++) {
        const ik__effector_goal *g = &w->goals[k];
        ik_real reach = ik__branch_reach(w->chain, w->tree.parents, g->joint, g->offset.pos, &root);
        if (g->pos_rows && ik_vec3_length(ik_vec3_sub(g->pos, w->chain->joints[root].origin.pos)) >
                               reach * (1 + 64 * IK_EPSILON) + w->o->tolerance)
            w->within_reach = 0;
    }
    w->within_reach = w->within_reach != 0;
    return w->within_reach != 0;
}

// Whether a symmetric singular state stalls the step (J^T e ~ 0; policy.max_kicks at most).
static bool ik__jacobian_stuck(ik__jac_work *w, const ik_real *e)
{
    const int dof = w->dof, m = w->m;
    ik_real jmax = 0, gmax = 0, enorm = 0;
    int c, i;
    if (!(w->kicks < w->policy.max_kicks && w->at.err > w->floor2))
        return false;
    for (c = 0; c < dof; c++)
        if (IK_FABS(w->dq[c]) > 64 * IK_EPSILON * (1 + IK_FABS(w->q[c])))
            return false;
    if (!ik__reaches(w))
        return false;
    for (i = 0; i < m; i++)
        enorm += e[i] * e[i];
    ik__jacobian_tmul(w->jac, e, m, dof, w->trial); // J^T e (trial is free here)
    for (c = 0; c < dof; c++)
        gmax = IK_FABS(w->trial[c]) > gmax ? IK_FABS(w->trial[c]) : gmax;
    for (c = 0; c < m * dof; c++)
        jmax = IK_FABS(w->jac[c]) > jmax ? IK_FABS(w->jac[c]) : jmax;
    return gmax <= 64 * IK_EPSILON * jmax * IK_SQRT(enorm);
}

// The trial becomes the state; its error and Jacobian too where that pass made them (fresh).
static void ik__jacobian_accept(ik__jac_work *w, const ik_real *e1, ik_real new_err, bool fresh)
{
    ik_real *swap = w->q;
    w->q = w->trial;
    w->trial = swap;
    if (w->goals && e1) { // (a skeleton's Jacobian: made only if the run steps again)
        ik__rows_copy(w->at.e0, e1, w->m);
        w->at.err = new_err;
        w->jac_stale = true;
    } else if (fresh) {
        swap = w->jac;
        w->jac = w->jac_trial;
        w->jac_trial = swap;
        ik__rows_copy(w->at.e0, e1, w->m);
        w->at.err = new_err;
    } else {
        w->at.err = ik__task_error(w, w->q, w->jac, w->at.e0);
    }
}

// Breaks that symmetry by a small fixed nudge of the free joints, signs alternating.
static void ik__jacobian_nudge(ik__jac_work *w)
{
    const ik_chain *chain = w->chain;
    int c, jt, t;
    w->kicks++;
    for (c = 0, jt = 0; jt < chain->joint_count; jt++) {
        const ik_joint *j = &chain->joints[jt];
        int nd = ik_joint_type_dof(j->type);
        ik_real size = j->type == IK_JOINT_PRISMATIC
                           ? IK_R(0.01) * w->scale / (ik_real)ik__movable_joints(chain)
                           : IK_R(0.01);
        size = size < w->o->max_joint_step ? size : w->o->max_joint_step;
        size *= IK_SQRT(ik__clamp(j->weight, 0, 1));
        for (t = 0; t < nd; t++, c++)
            w->dq[c] = w->pinned[c] != 0
                           ? 0
                           : size * (1 + IK_R(0.1) * (ik_real)(c % 5)) * (c % 2 ? 1 : -1);
    }
    ik__jacobian_apply(chain, w->euler, w->goals ? w->tree.balls : NULL, w->q, w->dq, 1, w->trial);
    ik__jacobian_accept(w, NULL, 0, false);
    w->at.best_err = IK_INFINITY; // (progress counts from the nudged state)
}

// PINV's full step failed 8 halvings: a damped step instead, lambda = min(|e|, lambda_max).
static void ik__pinv_fallback(ik__jac_work *w, ik_real *e)
{
    ik_jacobian_opts od = *w->o;
    ik_real e2 = 0;
    int i;
    ik__rows_copy(e, w->at.e0, w->m);
    for (i = 0; i < w->m; i++)
        e2 += e[i] * e[i];
    od.method = IK_JACOBIAN_DLS;
    od.damping = IK_SQRT(e2) < IK_R(0.1) * w->scale ? IK_SQRT(e2) : IK_R(0.1) * w->scale;
    if (w->ball_limits) // (the active set's pins on balls are in their frames)
        ik__ball_frames(w);
    w->normal_kept = false; // (J W J^T made again)
    ik__task_step(&od, w, e);
    if (w->ball_limits)
        ik__ball_frames_undo(w);
}

static inline ik_real ik__angle_into(ik_real x, ik_real lo, ik_real hi);

// Whether the full step just taken can be applied again to a later error (a chord step): a
// skeleton's task of more rows than a chain's, each priority's step by the normal equations,
// priority 0's A1 factored with no shift (docs/skeletons.md, "Chord steps").
static bool ik__chord_ready(const ik__jac_work *w)
{
    return w->policy.save_steps && w->m > IK__CHAIN_ROWS && !w->policy.lm_damping &&
           w->chord_factor && (w->first_rows == 0 || (w->a1_unshifted && w->chord_first));
}

// Takes the step, halved while it raises the error (policy.halvings at most; none if no try helps
// or it moves no joint); the first try's pass gives the next Jacobian (not after an exact step).
// A step taken whole that cut the error's square 16-fold readies a chord step (ik__chord_ready()).
static void ik__jacobian_line_search(ik__jac_work *w, ik_real *e, bool exact)
{
    const bool pinv = w->o->method == IK_JACOBIAN_PINV;
    const ik_real err = w->at.err;
    ik_real step = 1, new_err = 0, *e1 = w->e1;
    int tries, c;
    for (tries = 0; tries < w->policy.halvings; tries++, step /= 2) {
        bool moves = tries == 0 || w->policy.halve_on;
        if (w->policy.halve_on && w->at.err <= w->floor2)
            return;
        if (tries == 8 && pinv) {
            ik__pinv_fallback(w, e);
            step = 1;
            moves = true;
        }
        for (c = 0; c < w->dof && !moves && w->at.err > w->floor2; c++)
            moves = IK_FABS(step * w->dq[c]) > IK_EPSILON * (1 + IK_FABS(w->q[c]));
        if (!moves && (!pinv || tries > 8 || w->at.err <= w->floor2))
            return;
        ik__jacobian_apply(w->chain, w->euler, w->goals ? w->tree.balls : NULL, w->q, w->dq, step,
                           w->trial);
        for (c = 0; w->turn && c < w->dof; c++) // (turning joints wrapped into their limits)
            if (w->turn[c] != 0)
                w->trial[c] =
                    ik__clamp(ik__angle_into(w->q[c] + step * w->dq[c], w->lo[c], w->hi[c]),
                              w->lo[c], w->hi[c]);
        new_err = ik__task_error(w, w->trial,
                                 tries == 0 && !exact && !w->goals ? w->jac_trial : NULL, e1);
        if (new_err <= w->at.err)
            break;
    }
    if (new_err <= w->at.err)
        ik__jacobian_accept(w, e1, new_err,
                            tries == 0 && (!exact || IK_SQRT(e1[0] * e1[0] + e1[1] * e1[1] +
                                                             e1[2] * e1[2]) <= w->o->tolerance));
    w->chord_ready = tries == 0 && !exact && new_err <= err / 16 && ik__chord_ready(w);
}

// Takes a chord step where it at least halves the error (|e|^2 to a quarter); else the state
// stays, and false: the next iteration is a full one.
static bool ik__chord_line_search(ik__jac_work *w)
{
    ik_real new_err;
    ik__jacobian_apply(w->chain, w->euler, w->goals ? w->tree.balls : NULL, w->q, w->dq, 1,
                       w->trial); // (skeletons: no turning joints to wrap)
    new_err = ik__task_error(w, w->trial, NULL, w->e1);
    if (!(new_err <= w->at.err / 4))
        return false;
    ik__jacobian_accept(w, w->e1, new_err, false);
    return true;
}

// The answer into q_io (unmoved balls bit for bit), or IK_ERR_NUMERIC if a value is unbounded.
static ik_result ik__jacobian_store(ik__jac_work *w, ik_real *q_io)
{
    const ik_chain *chain = w->chain;
    int c, jt;
    for (c = 0, jt = 0; jt < chain->joint_count; jt++) {
        const ik_joint *j = &chain->joints[jt];
        if (j->type == IK_JOINT_BALL && w->euler) {
            ik_vec3 ypr = ik__expmap_to_ypr(q_io + c);
            ik_quat r = ik__ball_rotation(w->q + c, true);
            ik_vec3 v = ik__quat_log(j->limit ? ik_ball_limit_project(j->limit, r) : r);
            if (ypr.x == w->q[c] && ypr.y == w->q[c + 1] && ypr.z == w->q[c + 2])
                v = ik_vec3_make(q_io[c], q_io[c + 1], q_io[c + 2]);
            w->q[c] = v.x, w->q[c + 1] = v.y, w->q[c + 2] = v.z;
        }
        if (j->type == IK_JOINT_BALL && j->limit) // (a map that rounds a rotation out: within)
            ik__expmap_stretch_within(j->limit, w->q + c);
        c += ik_joint_type_dof(j->type);
    }
    for (c = 0; c < w->dof; c++)
        if (!ik__bounded(w->q[c]))
            return IK_ERR_NUMERIC;
    memcpy(q_io, w->q, (size_t)w->dof * sizeof(ik_real));
    return IK_OK;
}

// The last full step's factors applied to the error e at a later state: dq = W J^T y, y from the
// factors kept (J, W, the pins and the ball frames the last step's; no rest pull), docs/skeletons.md,
// "Chord steps"; false if a value would move farther than max_joint_step.
static bool ik__chord_step(ik__jac_work *w, const ik_real *e)
{
    const int m = w->m, m1 = w->first_rows, m2 = m - m1, dof = w->dof;
    const ik_real *full = w->proj, *l1 = full + w->rows * w->rows;
    ik_real *y = w->y, *u = w->s;
    int r, k;
    ik__rows_copy(y, e, m);
    if (m1 == 0) {
        ik__ldlt_solve(w->chord_factor, m, y);
    } else {
        ik__ldlt_solve(l1, m1, y);                     // y1 = A1^-1 e1
        ik__block_mul(full + m1 * m, m, m2, m1, y, u); // e2 - C y1
        for (r = 0; r < m2; r++)
            y[m1 + r] -= u[r];
        ik__ldlt_solve(w->chord_factor, m2, y + m1); // y2
        for (k = 0; k < m1; k++) {                   // y1 - A1^-1 C^T y2
            u[k] = 0;
            for (r = 0; r < m2; r++)
                u[k] += full[(m1 + r) * m + k] * y[m1 + r];
        }
        ik__ldlt_solve(l1, m1, u);
        for (k = 0; k < m1; k++)
            y[k] -= u[k];
    }
    memset(w->dq, 0, (size_t)dof * sizeof *w->dq);
    ik__goals_tmul_add(w, 0, m, y, w->dq);
    for (k = 0; k < dof; k++) // (pinned columns stay on their limits)
        w->dq[k] *= w->pinned[k] != 0 ? 0 : w->sw[k] * w->sw[k];
    if (w->ball_limits)
        ik__ball_frames_dq(w);
    for (k = 0; k < dof; k++)
        if (!(IK_FABS(w->dq[k]) <= w->o->max_joint_step))
            return false;
    return true;
}

// The one iteration loop of ik_jacobian_solve() and ik_arm_solve()'s attempts from w->q, their
// differences in w->policy (docs/jacobian.md, "One iteration core"); false on a breakdown.
static bool ik__iterate(ik__jac_work *w, ik_solve_info *res)
{
    const ik_jacobian_opts *o = w->o;
    ik_status *status = &res->status;
    ik_real *e = w->e;
    int it;
    *status = IK_STATUS_MAX_ITERATIONS;
    for (it = 0; ik__finite(w->at.err); it++) {
        bool exact;
        if (ik__progress_stop(w, it, o->max_iterations, status) ||
            (it == w->policy.probe_it &&
             w->at.pos_err + w->policy.lw * w->at.rot_err > w->policy.probe_cost)) { // (the probe)
            if (*status != IK_STATUS_CONVERGED && !ik__reaches(w))
                *status = IK_STATUS_UNREACHABLE;
            res->iterations = it;
            res->position_error = w->at.pos_err;
            res->rotation_error = w->at.rot_err;
            return true;
        }
        if (w->chord_ready) { // (the last step's factors again: no Jacobian; else a full step)
            ik__clamp_error(w, o->max_step, e);
            w->chord_ready = ik__chord_step(w, e) && ik__chord_line_search(w);
            if (w->chord_ready)
                continue;
        }
        if (w->jac_stale) // (the same error, and the Jacobian)
            w->at.err = ik__task_error(w, w->q, w->jac, w->at.e0);
        w->jac_stale = false;
        ik__clamp_error(w, o->max_step, e);
        exact = w->policy.planar && ik__planar_step(w, w->at.e0);
        if (!exact && !ik__active_set_step(w, e))
            return false;
        if (!exact && ik__jacobian_stuck(w, e))
            ik__jacobian_nudge(w);
        else
            ik__jacobian_line_search(w, e, exact);
    }
    return false;
}

IKDEF ik_result ik_jacobian_solve(const ik_chain *chain, const ik_target *target_in,
                                  const ik_jacobian_opts *opts, ik_real *q_io, void *scratch,
                                  size_t scratch_size, ik_solve_info *info)
{
    const ik_jacobian_opts o = opts ? *opts : ik_default_jacobian_opts();
    ik_solve_info res;
    ik__jac_work w;
    ik_result r = ik__jacobian_setup(&w, chain, target_in, &o, q_io, scratch, scratch_size, info);
    if (r != IK_OK)
        return r;
    if (!ik__iterate(&w, &res))
        return IK_ERR_NUMERIC;
    r = ik__jacobian_store(&w, q_io);
    if (r == IK_OK && info)
        *info = res;
    return r;
}

// ---- implementation: skeletons (docs/skeletons.md) --------------------------------------------

IKDEF ik_skeleton ik_skeleton_make(const ik_joint *joints, const int *parents, int joint_count)
{
    ik_skeleton s;
    s.joints = joints;
    s.parents = parents;
    s.joint_count = joint_count;
    return s;
}

IKDEF ik_effector ik_effector_make(int joint, ik_xform offset, ik_effector_kind kind,
                                   ik_vec3 target)
{
    ik_effector e;
    e.joint = joint;
    e.offset = offset;
    e.kind = kind;
    e.axis = ik_vec3_make(0, 0, 1);
    e.target = target;
    e.target_rot = ik_quat_identity();
    e.position_weight = e.rotation_weight = e.blend = 1;
    e.priority = 0;
    return e;
}

IKDEF void ik_joints_floating_root(ik_joint out_joints[4])
{
    int k;
    for (k = 0; k < 3; k++)
        out_joints[k] = ik_joint_prismatic(ik_xform_identity(),
                                           ik_vec3_make(k == 0 ? 1 : 0, k == 1 ? 1 : 0, k == 2));
    out_joints[3] = ik_joint_ball(ik_xform_identity());
}

// The skeleton's joints as a chain (the tip unused): the kinematics pass's view of them.
static ik_chain ik__skeleton_chain(const ik_skeleton *skeleton)
{
    return ik_chain_make(skeleton->joints, skeleton->joint_count, ik_xform_identity());
}

IKDEF ik_result ik_skeleton_validate(const ik_skeleton *skeleton)
{
    ik_chain chain;
    ik_result r;
    int i;
    if (!skeleton)
        return IK_ERR_NULL_ARG;
    chain = ik__skeleton_chain(skeleton);
    r = ik_chain_validate(&chain);
    for (i = 0; r == IK_OK && skeleton->parents && i < skeleton->joint_count; i++)
        if (skeleton->parents[i] < -1 || skeleton->parents[i] >= i)
            r = IK_ERR_BAD_ARG;
    return r;
}

IKDEF int ik_skeleton_dof(const ik_skeleton *skeleton)
{
    ik_chain chain;
    if (ik_skeleton_validate(skeleton) != IK_OK)
        return -1;
    chain = ik__skeleton_chain(skeleton);
    return ik__chain_dof(&chain);
}

IKDEF int ik_skeleton_state_index(const ik_skeleton *skeleton, int joint)
{
    ik_chain chain;
    if (ik_skeleton_validate(skeleton) != IK_OK)
        return -1;
    chain = ik__skeleton_chain(skeleton);
    return ik_chain_state_index(&chain, joint);
}

// The skeleton and q checked (*out_dof), and out (count bytes) not overlapping q.
static ik_result ik__skeleton_state_validate(const ik_skeleton *skeleton, const ik_real *q,
                                             const void *out, size_t count, int *out_dof)
{
    ik_chain chain;
    ik_result r = ik_skeleton_validate(skeleton);
    if (r != IK_OK)
        return r;
    chain = ik__skeleton_chain(skeleton);
    *out_dof = ik__chain_dof(&chain);
    r = ik__state_validate(q, *out_dof);
    if (r == IK_OK && !out)
        return IK_ERR_NULL_ARG;
    if (r == IK_OK && ik__overlap(q, (size_t)*out_dof * sizeof *q, out, count))
        return IK_ERR_BAD_ARG;
    return r;
}

IKDEF ik_result ik_skeleton_fk(const ik_skeleton *skeleton, const ik_real *q, ik_xform *out_frames)
{
    int dof = 0;
    ik_result r = ik__skeleton_state_validate(
        skeleton, q, out_frames,
        skeleton
            ? (size_t)(skeleton->joint_count > 0 ? skeleton->joint_count : 0) * sizeof *out_frames
            : 0,
        &dof);
    ik_chain chain;
    ik__tree tree;
    if (r != IK_OK)
        return r;
    chain = ik__skeleton_chain(skeleton);
    tree.parents = skeleton->parents;
    tree.frames = NULL; // (out_frames keep them)
    tree.balls = NULL;
    ik__jacobian(&chain, NULL, q, 6, dof, NULL, false, 1, out_frames, NULL, &tree);
    return IK_OK;
}

IKDEF ik_result ik_skeleton_jacobian(const ik_skeleton *skeleton, const ik_real *q, int joint,
                                     ik_xform offset, ik_real *out_jacobian, ik_xform *out_frames)
{
    ik_real identity[36] = { 0 };
    int dof = 0, k;
    ik_chain chain;
    ik__tree tree;
    ik_vec3 pe;
    ik_result r = ik__skeleton_state_validate(
        skeleton, q, out_frames,
        skeleton
            ? (size_t)(skeleton->joint_count > 0 ? skeleton->joint_count : 0) * sizeof *out_frames
            : 0,
        &dof);
    if (r == IK_OK && !out_jacobian)
        r = IK_ERR_NULL_ARG;
    if (r == IK_OK &&
        (joint < 0 || joint >= skeleton->joint_count || !ik__xform_valid(&offset) ||
         ik__overlap(q, (size_t)dof * sizeof *q, out_jacobian, 6 * (size_t)dof * sizeof *q) ||
         ik__overlap(out_frames, (size_t)skeleton->joint_count * sizeof *out_frames, out_jacobian,
                     6 * (size_t)dof * sizeof *q)))
        r = IK_ERR_BAD_ARG;
    if (r != IK_OK)
        return r;
    chain = ik__skeleton_chain(skeleton);
    tree.parents = skeleton->parents;
    tree.frames = NULL;
    tree.balls = NULL;
    for (k = 0; k < 6; k++)
        identity[7 * k] = 1;
    ik__jacobian(&chain, NULL, q, 6, dof, out_jacobian, false, 1, out_frames, NULL, &tree);
    pe = ik_xform_apply(out_frames[joint], offset.pos);
    ik__effector_rows(&chain, skeleton->parents, joint, NULL, 0, out_jacobian, dof, pe, identity,
                      true, 6, out_jacobian);
    return IK_OK;
}

// The rows a skeleton's work arrays are sized for: its task's, at least the fast paths' 6 (the
// tall step pads its matrices to 6 x 6).
static int ik__skeleton_rows(int task_rows)
{
    return task_rows > IK__CHAIN_ROWS ? task_rows : IK__CHAIN_ROWS;
}

// Reals of an effector goal in scratch.
#define IK__GOAL_REALS ((sizeof(ik__effector_goal) + sizeof(ik_real) - 1) / sizeof(ik_real))

// The reals of a skeleton solve's work for `rows` rows: the core's (no joint table: the prepared
// skeleton's), the frames, columns, goals.
static size_t ik__skeleton_reals(int joint_count, int dof, int rows, int effector_count)
{
    return ik__jacobian_rows_reals(dof, rows, 0) + (12 + IK__BALL_KEPT) * (size_t)joint_count +
           7 * (size_t)dof + 3 * (size_t)rows * (size_t)rows +
           (size_t)effector_count * IK__GOAL_REALS + 2 * (size_t)rows * (size_t)dof;
}

#define IK__SKELETON_PREPARED 0x5ce1e7 // a prepared skeleton's valid

// An effector's layout in a prepared skeleton: what the effectors of its solves must match, and
// its rows and columns.
typedef struct ik__goal_layout {
    int joint, kind, priority; // the effector's
    int pos_rows, rot_rows;    // its rows (ik__effector_task_rows())
    int row;                   // its first task row (priority 0's rows first)
    int cols_at, col_count;    // its columns (its joint's and ancestors'): goal_cols[cols_at..]
} ik__goal_layout;

// A prepared skeleton (ik_skeleton_prepare()): this header, then its joint table, its effectors'
// layouts and their columns.
typedef struct ik__skel_prepared {
    int valid;                      // IK__SKELETON_PREPARED
    const void *at;                 // this header's address (a byte copy elsewhere: not it)
    int dof, rows;                  // the state's length; the effectors' task rows
    int first_rows;                 // priority 0's rows where priority 1 has rows too, else 0
    int count;                      // the effectors
    size_t bytes;                   // this memory's, from its aligned start
    ik_skeleton skeleton;           // the caller's (its joints and parents are read, not copied)
    ik_real scale, ow;              // the length scale; the orientation weight by default
    ik__joint_table table;          // its arrays here
    const ik__goal_layout *layouts; // [count]
    const int *goal_cols;           // [count x dof] each effector's columns, ascending
} ik__skel_prepared;

// A prepared skeleton's bytes from its aligned start (table: its joint table's reals).
static size_t ik__skeleton_prepared_bytes(size_t table, int dof, int joint_count, int count)
{
    return IK__PREPARED_ROUND(IK__PREPARED_ROUND(sizeof(ik__skel_prepared)) +
                              table * sizeof(ik_real) + (size_t)count * sizeof(ik__goal_layout) +
                              ((size_t)count * (size_t)dof + 2 * (size_t)joint_count + 1) *
                                  sizeof(int));
}

// Bytes of scratch ik_skeleton_solve() needs for `rows` task rows: a prepared skeleton and room to
// align it, then the solve's work.
static size_t ik__skeleton_solve_bytes(size_t table, int dof, int joint_count, int rows, int count)
{
    return IK__PREPARED_ALIGN + ik__skeleton_prepared_bytes(table, dof, joint_count, count) +
           ik__skeleton_reals(joint_count, dof, ik__skeleton_rows(rows), count) * sizeof(ik_real);
}

IKDEF size_t ik_skeleton_prepared_size(const ik_skeleton *skeleton, const ik_effector *effectors,
                                       int effector_count)
{
    ik_chain chain;
    int dof = ik_skeleton_dof(skeleton);
    if (dof < 0 || !effectors || effector_count < 1 || effector_count > IK_MAX_EFFECTORS)
        return 0;
    chain = ik__skeleton_chain(skeleton);
    return IK__PREPARED_ALIGN + ik__skeleton_prepared_bytes(ik__table_reals(&chain), dof,
                                                            chain.joint_count, effector_count);
}

IKDEF size_t ik_skeleton_scratch_size(const ik_skeleton *skeleton, const ik_effector *effectors,
                                      int effector_count)
{
    ik_chain chain;
    int dof = ik_skeleton_dof(skeleton), rows = 0, k;
    if (dof < 0 || !effectors || effector_count < 1 || effector_count > IK_MAX_EFFECTORS)
        return 0;
    for (k = 0; k < effector_count; k++) // (as if every weight were positive)
        rows += effectors[k].kind == IK_EFFECTOR_POSE        ? 6
                : effectors[k].kind == IK_EFFECTOR_FREE_AXIS ? 5
                : effectors[k].kind == IK_EFFECTOR_POSITION  ? 3
                                                             : 2;
    chain = ik__skeleton_chain(skeleton);
    return ik__skeleton_solve_bytes(ik__table_reals(&chain), dof, chain.joint_count, rows,
                                    effector_count);
}

// Whether an effector's weight is 0 or within [1e-6, 1e6] (its rows' errors and their squares
// neither underflow nor overflow, in float too).
static bool ik__effector_weight_valid(ik_real weight)
{
    return ik__bounded(weight) && (weight == 0 || (weight >= IK_R(1e-6) && weight <= IK_R(1e6)));
}

// Whether an effector is well formed for a skeleton of joint_count joints.
static bool ik__effector_valid(const ik_effector *e, int joint_count)
{
    const bool axis = e->kind >= IK_EFFECTOR_AIM,
               rot = e->kind == IK_EFFECTOR_POSE || e->kind == IK_EFFECTOR_FREE_AXIS;
    if (e->joint < 0 || e->joint >= joint_count || (int)e->kind < 0 ||
        (int)e->kind > IK_EFFECTOR_FREE_AXIS || !ik__xform_valid(&e->offset) ||
        !ik__vec3_bounded(e->target))
        return false;
    if (axis &&
        !(ik__vec3_bounded(e->axis) && IK_FABS(ik_vec3_length2(e->axis) - 1) <= IK__UNIT_TOL))
        return false;
    if (e->kind == IK_EFFECTOR_DIRECTION && ik_vec3_length2(ik_vec3_normalize(e->target)) == 0)
        return false;
    if (rot && !ik__quat_usable(e->target_rot))
        return false;
    return ik__effector_weight_valid(e->position_weight) &&
           ik__effector_weight_valid(e->rotation_weight) && ik__bounded(e->blend) &&
           e->blend >= 0 && e->blend <= 1 && (e->priority == 0 || e->priority == 1);
}

// The task rows an effector takes: 3 for a position, 3 for a rotation, 2 for an axis.
static int ik__effector_task_rows(const ik_effector *e, int *pos_rows, int *rot_rows)
{
    const bool pos = e->kind == IK_EFFECTOR_POSITION || e->kind == IK_EFFECTOR_POSE ||
                     e->kind == IK_EFFECTOR_FREE_AXIS;
    *pos_rows = pos && e->position_weight > 0 ? 3 : 0;
    *rot_rows = e->kind == IK_EFFECTOR_POSITION || e->rotation_weight == 0 ? 0
                : e->kind == IK_EFFECTOR_POSE                              ? 3
                                                                           : 2;
    return *pos_rows + *rot_rows;
}

// The largest distance from the root of joint's branch that its effector at offset reaches.
static ik_real ik__branch_reach(const ik_chain *chain, const int *parents, int joint,
                                ik_vec3 offset, int *out_root)
{
    ik_real reach = ik_vec3_length(offset);
    int i;
    for (i = joint; i >= 0; i = parents ? parents[i] : i - 1) {
        const ik_joint *j = &chain->joints[i];
        if (j->type == IK_JOINT_PRISMATIC)
            reach += IK_FABS(j->lo) > IK_FABS(j->hi) ? IK_FABS(j->lo) : IK_FABS(j->hi);
        if ((parents ? parents[i] : i - 1) >= 0)
            reach += ik_vec3_length(j->origin.pos);
        *out_root = i;
    }
    return reach;
}

// The skeleton's size: its bones' lengths and its limited prismatic joints' travel.
static ik_real ik__skeleton_size(const ik_chain *chain, const int *parents)
{
    ik_real size = 0;
    int i;
    for (i = 0; i < chain->joint_count; i++) {
        const ik_joint *j = &chain->joints[i];
        if ((parents ? parents[i] : i - 1) >= 0)
            size += ik_vec3_length(j->origin.pos);
        if (j->type == IK_JOINT_PRISMATIC) {
            ik_real travel = IK_FABS(j->lo) > IK_FABS(j->hi) ? IK_FABS(j->lo) : IK_FABS(j->hi);
            size += ik__finite(travel) ? travel : 0;
        }
    }
    return size;
}

// The goal of an effector of blend t < 1 (g from its target): its pose at the start (the pass's
// frames) blended toward the target, *goal the rotation (docs/skeletons.md, "Blend").
static void ik__goal_blend(const ik__jac_work *w, const ik_effector *e, ik__effector_goal *g,
                           ik_quat *goal)
{
    const ik_real *f = w->tree.frames + 12 * e->joint, t = e->blend;
    ik_mat3 r;
    ik_quat start;
    ik_vec3 pe, a;
    memcpy(&r.m[0][0], f, 9 * sizeof *f);
    pe = ik_vec3_add(ik_vec3_make(f[9], f[10], f[11]), ik_mat3_mul_vec3(r, e->offset.pos));
    start = ik_quat_normalize(ik_quat_mul(ik__quat_from_mat3(&r), e->offset.rot));
    a = ik_quat_rotate(start, g->axis);
    g->pos = ik_vec3_lerp(pe, e->target, t);
    if (e->kind == IK_EFFECTOR_AIM) // (the point it aims at, as far, toward the target)
        g->pos = ik_vec3_lerp(ik_vec3_add_scaled(pe, a, ik_vec3_length(ik_vec3_sub(e->target, pe))),
                              e->target, t);
    *goal = ik_quat_slerp(start, *goal, t);
    g->dir =
        e->kind == IK_EFFECTOR_DIRECTION
            ? ik_quat_rotate(
                  ik_quat_slerp(ik_quat_identity(), ik_quat_from_two_vectors(a, e->target), t), a)
            : ik_quat_rotate(*goal, g->axis);
}

// An effector's goal at row: its target, or blended from its start pose (blend < 1).
static void ik__goal_make(const ik__jac_work *w, const ik_effector *e, int row,
                          ik__effector_goal *g)
{
    ik_quat goal = ik_quat_normalize(e->target_rot);
    g->joint = e->joint, g->kind = (int)e->kind, g->priority = e->priority, g->row = row;
    ik__effector_task_rows(e, &g->pos_rows, &g->rot_rows);
    g->offset = e->offset;
    g->axis = ik_vec3_normalize(e->axis);
    g->pw = e->position_weight, g->rw = e->rotation_weight * w->ow;
    g->rw = g->rw < IK_MAX_MAGNITUDE ? g->rw : IK_MAX_MAGNITUDE; // (its squares fit in float)
    g->pos = e->target;
    g->dir = e->kind == IK_EFFECTOR_DIRECTION ? ik_vec3_normalize(e->target)
                                              : ik_quat_rotate(goal, g->axis);
    if (e->blend < 1)
        ik__goal_blend(w, e, g, &goal);
    g->rot = ik_quat_to_mat3(ik_quat_mul(goal, ik_quat_conjugate(e->offset.rot)));
}

// Each effector's columns (its joint's and its ancestors', ascending) at out + k dof, from each
// joint's first column and its ancestors' column count (kept past them): a walk up from each
// effector's joint, written down from the top. Returns out.
static const int *ik__goal_columns(const ik_chain *chain, const int *parents, int dof,
                                   ik__goal_layout *layouts, int count, int *out)
{
    int *first = out + count * dof, *above = first + chain->joint_count + 1, i, k, c, n;
    for (i = 0, c = 0; i < chain->joint_count; i++) {
        const int parent = parents ? parents[i] : i - 1;
        const int nd = ik_joint_type_dof(chain->joints[i].type);
        first[i] = c;
        above[i] = (parent >= 0 ? above[parent] : 0) + nd; // (its own and its ancestors')
        c += nd;
    }
    first[i] = c;
    for (k = 0; k < count; k++) {
        int *cols = out + k * dof;
        n = above[layouts[k].joint];
        layouts[k].cols_at = k * dof, layouts[k].col_count = n;
        for (i = layouts[k].joint; i >= 0; i = parents ? parents[i] : i - 1) {
            const int at = first[i], nd = first[i + 1] - at; // (at most 3)
            n -= nd;
            if (nd > 0)
                cols[n] = at;
            if (nd > 1)
                cols[n + 1] = at + 1;
            if (nd > 2)
                cols[n + 2] = at + 2;
        }
    }
    return out;
}

// A skeleton pass's arrays in base: the frames, the kept balls (none yet: NaN equals no value);
// returns the reals past them.
static ik_real *ik__tree_layout(ik__tree *tree, const ik_skeleton *skeleton, ik_real *base)
{
    int k;
    tree->parents = skeleton->parents;
    tree->frames = base;
    tree->balls = base + 12 * skeleton->joint_count;
    for (k = 0; k < skeleton->joint_count; k++)
        tree->balls[IK__BALL_KEPT * k] = ik__nan();
    return tree->balls + IK__BALL_KEPT * skeleton->joint_count;
}

// Prepares a checked skeleton (dof; table: its joint table's reals) for checked effectors at pp
// (ik__skeleton_prepared_bytes()): the joint table, the length scale, each effector's rows
// (priority 0's first) and columns.
static void ik__skeleton_prepare(ik__skel_prepared *pp, const ik_skeleton *skeleton,
                                 const ik_effector *effectors, int count, int dof, size_t table)
{
    const ik_chain chain = ik__skeleton_chain(skeleton);
    ik_real *at = (ik_real *)(void *)((char *)pp + IK__PREPARED_ROUND(sizeof *pp));
    ik__goal_layout *layouts = (ik__goal_layout *)(void *)(at + table);
    int k, n, row0 = 0, row1 = 0;
    memset(pp, 0, sizeof *pp); // (its padding too: every byte of the memory defined)
    pp->valid = IK__SKELETON_PREPARED;
    pp->at = pp;
    pp->dof = dof, pp->count = count, pp->rows = 0;
    pp->bytes = ik__skeleton_prepared_bytes(table, dof, skeleton->joint_count, count);
    pp->skeleton.joints = skeleton->joints; // (field by field: the caller's padding not copied)
    pp->skeleton.parents = skeleton->parents;
    pp->skeleton.joint_count = skeleton->joint_count;
    pp->table = ik__joint_table_make(&chain, at);
    pp->scale = ik__length_scale(ik__skeleton_size(&chain, skeleton->parents));
    pp->ow = pp->scale / (ik_real)ik__movable_joints(&chain);
    for (k = 0; k < count; k++) {
        ik__goal_layout *l = &layouts[k];
        l->joint = effectors[k].joint, l->kind = (int)effectors[k].kind;
        l->priority = effectors[k].priority;
        n = ik__effector_task_rows(&effectors[k], &l->pos_rows, &l->rot_rows);
        pp->rows += n;
        row1 += l->priority == 0 ? n : 0; // (priority 1's rows start past priority 0's)
    }
    pp->first_rows = row1 < pp->rows ? row1 : 0;
    for (k = 0; k < count; k++) {
        ik__goal_layout *l = &layouts[k];
        l->row = l->priority == 0 ? row0 : row1;
        *(l->priority == 0 ? &row0 : &row1) += l->pos_rows + l->rot_rows;
    }
    pp->layouts = layouts;
    pp->goal_cols =
        ik__goal_columns(&chain, skeleton->parents, dof, layouts, count, (int *)(layouts + count));
}

// Whether an effector has the layout l: its joint, kind, priority and rows.
static bool ik__goal_layout_match(const ik__goal_layout *l, const ik_effector *e)
{
    int pos_rows, rot_rows;
    ik__effector_task_rows(e, &pos_rows, &rot_rows);
    return e->joint == l->joint && (int)e->kind == l->kind && e->priority == l->priority &&
           pos_rows == l->pos_rows && rot_rows == l->rot_rows;
}

// A solve's work in w, in base (ik__skeleton_reals() for pp's rows), on the prepared skeleton pp
// from q_io with its effectors (all checked): arrays, goals blended from the start, reach.
static void ik__skeleton_init(ik__jac_work *w, const ik__skel_prepared *pp,
                              const ik_effector *effectors, const ik_jacobian_opts *o,
                              ik_real *base, const ik_real *q_io)
{
    const int dof = pp->dof, count = pp->count;
    int k;
    w->tree_chain = ik__skeleton_chain(&pp->skeleton);
    w->chain = &w->tree_chain;
    w->o = o;
    w->goal.use_rotation = false; // (a chain's goal: unused)
    w->dof = dof;
    w->m = pp->rows;
    w->rows = ik__skeleton_rows(pp->rows);
    w->euler = o->ball_param == IK_BALL_EULER;
    ik__jacobian_layout(w, base, dof);
    w->table = pp->table;
    w->table.memo = NULL; // (the prepared table is read only; a tree's passes keep no memo)
    memset(w->jac, 0, (size_t)(w->rows * dof) * sizeof *w->jac); // (the goals' columns made only)
    w->cols = ik__tree_layout(&w->tree, &pp->skeleton, w->rv + w->rows);
    w->proj = w->cols + 6 * dof;
    w->dq1 = w->proj + 3 * w->rows * w->rows;
    w->goals = (ik__effector_goal *)(void *)(w->dq1 + dof);
    w->goal_count = count;
    w->packed = (ik_real *)(void *)w->goals + count * (int)IK__GOAL_REALS;
    w->packed_w = w->packed + w->rows * dof;
    w->goal_cols = pp->goal_cols;
    w->by_goals = true;
    w->full_rows = 0;
    w->jac_stale = false;
    w->scale = pp->scale;
    w->ow = o->orientation_weight > 0 ? o->orientation_weight : pp->ow;
    ik__jacobian_load(w, q_io);
    for (k = 0; k < count && effectors[k].blend == 1; k++)
        ;
    if (k < count) // (a blend: the start's frames)
        ik__jacobian(w->chain, &w->table, w->q, 6, dof, NULL, w->euler, 1, NULL, NULL, &w->tree);
    w->within_reach = -1;
    w->first_rows = pp->first_rows;
    for (k = 0; k < count; k++) {
        ik__goal_make(w, &effectors[k], pp->layouts[k].row, &w->goals[k]);
        w->goals[k].cols_at = pp->layouts[k].cols_at;
        w->goals[k].col_count = pp->layouts[k].col_count;
    }
    w->jac_bound = IK_INFINITY;
    w->floor2 = (16 * IK_EPSILON * w->scale) * (16 * IK_EPSILON * w->scale);
    w->policy = ik__jacobian_policy;
    w->policy.save_steps = pp->rows > IK__CHAIN_ROWS;
    w->turn = NULL;
}

// Whether a skeleton solve's arrays overlap where they must not: the skeleton, its parents, the
// effectors and their infos with the scratch; the infos with q and info.
static bool ik__skeleton_overlaps(const ik_skeleton *skeleton, const ik_effector *effectors,
                                  int count, const ik_real *q, int dof, const ik_solve_info *info,
                                  const ik_effector_info *out, const void *scratch, size_t size)
{
    const size_t n = (size_t)count, outs = out ? n * sizeof *out : 0;
    return ik__overlap(skeleton, sizeof *skeleton, scratch, size) ||
           ik__overlap(effectors, n * sizeof *effectors, scratch, size) ||
           ik__overlap(out, outs, scratch, size) ||
           ik__overlap(out, outs, q, (size_t)dof * sizeof *q) ||
           ik__overlap(out, outs, info, info ? sizeof *info : 0) ||
           ik__overlap(skeleton->parents,
                       skeleton->parents ? (size_t)skeleton->joint_count * sizeof(int) : 0, scratch,
                       size);
}

// A skeleton solve's input after the skeleton (dof) and q checked, in the order of its status
// codes (pp: the prepared skeleton whose layout the effectors must have, or NULL; opts_valid: the
// options', rest: the rest pose or NULL); *rows the effectors' task rows.
static ik_result ik__skeleton_checks(const ik_skeleton *skeleton, int dof,
                                     const ik__skel_prepared *pp, const ik_effector *effectors,
                                     int count, bool opts_valid, const ik_real *rest,
                                     const ik_real *q_io, const void *scratch, size_t scratch_size,
                                     const ik_solve_info *info, const ik_effector_info *out,
                                     int *rows)
{
    ik_chain chain;
    int k, pos_rows, rot_rows;
    ik_result r;
    if (!effectors)
        return IK_ERR_NULL_ARG;
    if (count < 1 || count > IK_MAX_EFFECTORS || (pp && count != pp->count))
        return IK_ERR_BAD_ARG;
    for (k = 0, *rows = 0; k < count; k++)
        if (!ik__effector_valid(&effectors[k], skeleton->joint_count) ||
            (pp && !ik__goal_layout_match(&pp->layouts[k], &effectors[k])))
            return IK_ERR_BAD_ARG;
        else
            *rows += ik__effector_task_rows(&effectors[k], &pos_rows, &rot_rows);
    chain = ik__skeleton_chain(skeleton);
    r = ik__solver_validate_rest(&chain, dof, q_io, opts_valid, rest, scratch, scratch_size, 0,
                                 info);
    if (r == IK_OK && ik__skeleton_overlaps(skeleton, effectors, count, q_io, dof, info, out,
                                            scratch, scratch_size))
        r = IK_ERR_BAD_ARG;
    return r;
}

// A skeleton solve's input checked in the order of its status codes (opts_valid: the options',
// rest: the rest pose or NULL); *dof, and *rows the effectors' task rows.
static ik_result ik__skeleton_inputs(const ik_skeleton *skeleton, const ik_effector *effectors,
                                     int count, bool opts_valid, const ik_real *rest,
                                     const ik_real *q_io, const void *scratch, size_t scratch_size,
                                     const ik_solve_info *info, const ik_effector_info *out,
                                     int *dof, int *rows)
{
    ik_result r = ik__skeleton_state_validate(skeleton, q_io, q_io, 0, dof);
    if (r != IK_OK)
        return r;
    return ik__skeleton_checks(skeleton, *dof, NULL, effectors, count, opts_valid, rest, q_io,
                               scratch, scratch_size, info, out, rows);
}

// More iterations from w's state on the first m rows (first_rows as w's), until res->iterations
// reaches `until` at most; then the errors of every row and the status (docs/skeletons.md,
// "Priorities").
static bool ik__skeleton_more(ik__jac_work *w, int m, int first_rows, int until, ik_solve_info *res)
{
    const int all = w->m, m1 = w->first_rows;
    const ik_jacobian_opts *o = w->o;
    ik_jacobian_opts left = *o;
    ik_solve_info more;
    bool ok;
    left.max_iterations = until - res->iterations;
    if (left.max_iterations < 1)
        return true;
    w->m = m, w->first_rows = first_rows, w->o = &left;
    ik__jacobian_start(w);
    ok = ik__iterate(w, &more);
    w->m = all, w->first_rows = m1, w->o = o, w->chord_ready = false;
    w->at.err = ik__task_error(w, w->q, w->jac, w->at.e0);
    res->iterations += more.iterations;
    if (ik__progress_met(w))
        res->status = IK_STATUS_CONVERGED;
    else if (more.status != IK_STATUS_CONVERGED) // (a part converged: the run's status stays)
        res->status = more.status;
    res->position_error = w->at.pos_err, res->rotation_error = w->at.rot_err;
    return ok;
}

// Whether priority 0's effectors are met at w's state.
static bool ik__priority_met(ik__jac_work *w)
{
    const int m = w->m, m1 = w->first_rows;
    bool met;
    w->m = m1, w->first_rows = 0;
    met = ik__progress_met(w);
    w->m = m, w->first_rows = m1;
    (void)ik__progress_met(w); // (w->at's errors: every effector's again)
    return met;
}

// Two priorities that did not converge: where they stalled (a local minimum of priority 1 within
// priority 0's solutions, say), both as one task from there; then, where priority 0 is not met,
// priority 0 alone (docs/skeletons.md, "Priorities"); the stall's state if that met priority 0
// and its error was no larger. The iterations: the two fifths of max_iterations kept back.
static bool ik__priority_rescue(ik__jac_work *w, int max_iterations, ik_solve_info *res)
{
    const ik_status stalled = res->status;
    const bool kept = stalled == IK_STATUS_STALLED && ik__priority_met(w);
    const ik_real kept_err = w->at.err;
    bool ok = true;
    memcpy(w->dq1, w->q, (size_t)w->dof * sizeof *w->q); // (the stall's state, kept)
    if (stalled == IK_STATUS_STALLED)
        ok = ik__skeleton_more(w, w->m, 0, max_iterations - max_iterations / 5, res);
    if (ok && res->status != IK_STATUS_CONVERGED && !ik__priority_met(w))
        ok = ik__skeleton_more(w, w->first_rows, 0, max_iterations, res);
    if (ok && res->status != IK_STATUS_CONVERGED && kept && kept_err <= w->at.err) {
        memcpy(w->q, w->dq1, (size_t)w->dof * sizeof *w->q); // (the stall's state was better)
        w->at.err = ik__task_error(w, w->q, w->jac, w->at.e0);
        (void)ik__progress_met(w);
        res->status = stalled;
        res->position_error = w->at.pos_err, res->rotation_error = w->at.rot_err;
    }
    return ok;
}

// Checks a skeleton solve's input and sets up w in scratch for a run: the skeleton prepared at the
// scratch's start, the solve's work in the rest.
static ik_result ik__skeleton_setup(ik__jac_work *w, const ik_skeleton *skeleton,
                                    const ik_effector *effectors, int count,
                                    const ik_jacobian_opts *o, const ik_real *q_io, void *scratch,
                                    size_t scratch_size, const ik_solve_info *info,
                                    const ik_effector_info *out_effectors)
{
    ik__skel_prepared *pp;
    ik_chain chain;
    size_t table;
    int dof = 0, rows = 0;
    ik_result r =
        ik__skeleton_inputs(skeleton, effectors, count, ik__jacobian_opts_valid(o), o->rest, q_io,
                            scratch, scratch_size, info, out_effectors, &dof, &rows);
    if (r != IK_OK)
        return r;
    chain = ik__skeleton_chain(skeleton);
    table = ik__table_reals(&chain);
    if (scratch_size < ik__skeleton_solve_bytes(table, dof, chain.joint_count, rows, count))
        return IK_ERR_SCRATCH_TOO_SMALL; // (as the size query counts)
    pp = (ik__skel_prepared *)(void *)((char *)scratch + ik__prepared_align_skip(scratch));
    ik__skeleton_prepare(pp, skeleton, effectors, count, dof, table);
    ik__skeleton_init(w, pp, effectors, o, (ik_real *)(void *)((char *)pp + pp->bytes), q_io);
    ik__jacobian_start(w);
    return IK_OK;
}

// A run of the solve set up in w with the options o: its iterations, then q_io, info, the
// effectors' errors.
static ik_result ik__skeleton_run(ik__jac_work *w, const ik_jacobian_opts *o, ik_real *q_io,
                                  ik_solve_info *info, ik_effector_info *out_effectors)
{
    ik_jacobian_opts first = *o; // (two priorities: two fifths of the iterations kept back)
    ik_solve_info res;
    ik_result r;
    int k;
    first.max_iterations -= w->first_rows > 0 ? 2 * (o->max_iterations / 5) : 0;
    w->o = &first;
    if (!ik__iterate(w, &res) || (w->first_rows > 0 && res.status != IK_STATUS_CONVERGED &&
                                  !ik__priority_rescue(w, o->max_iterations, &res)))
        return IK_ERR_NUMERIC;
    r = ik__jacobian_store(w, q_io);
    if (r == IK_OK && info)
        *info = res;
    for (k = 0; r == IK_OK && out_effectors && k < w->goal_count; k++) {
        ik_effector_info *out = &out_effectors[k];
        ik__goal_errors(&w->goals[k], w->at.e0, &out->position_error, &out->rotation_error);
        out->met =
            out->position_error <= o->tolerance && out->rotation_error <= o->rotation_tolerance;
    }
    return r;
}

IKDEF ik_result ik_skeleton_solve(const ik_skeleton *skeleton, const ik_effector *effectors,
                                  int effector_count, const ik_jacobian_opts *opts, ik_real *q_io,
                                  void *scratch, size_t scratch_size, ik_solve_info *info,
                                  ik_effector_info *out_effectors)
{
    const ik_jacobian_opts o = opts ? *opts : ik_default_jacobian_opts();
    ik__jac_work w;
    ik_result r = ik__skeleton_setup(&w, skeleton, effectors, effector_count, &o, q_io, scratch,
                                     scratch_size, info, out_effectors);
    if (r != IK_OK)
        return r;
    return ik__skeleton_run(&w, &o, q_io, info, out_effectors);
}

IKDEF ik_result ik_skeleton_prepare(const ik_skeleton *skeleton, const ik_effector *effectors,
                                    int effector_count, void *prepared, size_t prepared_size)
{
    ik_chain chain;
    size_t table;
    int k;
    ik_result r = ik_skeleton_validate(skeleton);
    if (r != IK_OK)
        return r;
    if (!effectors)
        return IK_ERR_NULL_ARG;
    if (effector_count < 1 || effector_count > IK_MAX_EFFECTORS)
        return IK_ERR_BAD_ARG;
    for (k = 0; k < effector_count; k++)
        if (!ik__effector_valid(&effectors[k], skeleton->joint_count))
            return IK_ERR_BAD_ARG;
    if (!prepared)
        return IK_ERR_NULL_ARG;
    chain = ik__skeleton_chain(skeleton);
    if (ik__solver_overlap(&chain, NULL, 0, NULL, NULL, prepared, prepared_size) ||
        ik__skeleton_overlaps(skeleton, effectors, effector_count, NULL, 0, NULL, NULL, prepared,
                              prepared_size))
        return IK_ERR_BAD_ARG;
    table = ik__table_reals(&chain);
    if (prepared_size <
        IK__PREPARED_ALIGN + ik__skeleton_prepared_bytes(table, ik__chain_dof(&chain),
                                                         chain.joint_count, effector_count))
        return IK_ERR_SCRATCH_TOO_SMALL;
    ik__skeleton_prepare(
        (ik__skel_prepared *)(void *)((char *)prepared + ik__prepared_align_skip(prepared)),
        skeleton, effectors, effector_count, ik__chain_dof(&chain), table);
    return IK_OK;
}

IKDEF ik_result ik_skeleton_solve_prepared(const void *prepared, const ik_effector *effectors,
                                           int effector_count, const ik_jacobian_opts *opts,
                                           ik_real *q_io, void *scratch, size_t scratch_size,
                                           ik_solve_info *info, ik_effector_info *out_effectors)
{
    const ik_jacobian_opts o = opts ? *opts : ik_default_jacobian_opts();
    const ik__skel_prepared *pp;
    ik__jac_work w;
    size_t reals;
    int rows = 0;
    ik_result r;
    if (!prepared)
        return IK_ERR_NULL_ARG;
    pp = (const ik__skel_prepared *)(const void *)((const char *)prepared +
                                                   ik__prepared_align_skip(prepared));
    if (pp->valid != IK__SKELETON_PREPARED || pp->at != pp) // (a copy or moved memory: refused)
        return IK_ERR_BAD_ARG;
    if ((scratch &&
         ik__overlap(pp, pp->bytes, scratch, scratch_size)) || // (writes would change it)
        ik__overlap(q_io, (size_t)pp->dof * sizeof *q_io, pp, pp->bytes) ||
        ik__overlap(info, info ? sizeof *info : 0, pp, pp->bytes) ||
        ik__overlap(out_effectors, out_effectors ? (size_t)pp->count * sizeof *out_effectors : 0,
                    pp, pp->bytes))
        return IK_ERR_BAD_ARG;
    r = ik__state_validate(q_io, pp->dof);
    if (r == IK_OK)
        r = ik__skeleton_checks(&pp->skeleton, pp->dof, pp, effectors, effector_count,
                                ik__jacobian_opts_valid(&o), o.rest, q_io, scratch, scratch_size,
                                info, out_effectors, &rows);
    if (r != IK_OK)
        return r;
    reals = ik__skeleton_reals(pp->skeleton.joint_count, pp->dof, ik__skeleton_rows(rows),
                               effector_count);
    if (!ik__scratch_reals(scratch, scratch_size, reals) ||
        scratch_size < (reals + 1) * sizeof(ik_real))
        return IK_ERR_SCRATCH_TOO_SMALL;
    ik__skeleton_init(&w, pp, effectors, &o, ik__scratch_reals(scratch, scratch_size, reals), q_io);
    ik__jacobian_start(&w);
    return ik__skeleton_run(&w, &o, q_io, info, out_effectors);
}

// ---- implementation: CCD -----------------------------------------------------------------------

// Each joint's step (Welman's closed forms) and a sweep's passes through the frames P_i, M_i (C_i,
// o_i, T_i; lengths times gs): docs/ccd.md, "One joint" and "How a sweep is computed".

#define IK__CCD_VALID    0x1cccd
#define IK__CCD_PREPARED 0x2cccd // a prepared chain's valid
#ifdef IK_USE_FLOAT
#define IK__CCD_TOL IK_R(1e-5) // float resolves about 1e-7 of a chain's size
#else
#define IK__CCD_TOL IK_R(1e-6)
#endif

// A joint's constant flags (ik__ccd_joint)
#define IK__CCD_MOVE  1  // weight > 0: the joint moves
#define IK__CCD_ANGLE 2  // a revolute joint with limits, weight < 1 or max_angle < pi: carries q
#define IK__CCD_FAST  8  // a free revolute joint, position target: the half-plane step
#define IK__CCD_LINK  32 // C_i = Rx(b), a turn about x (ik__ccd_links())

// A joint's constants, in a prepared chain.
typedef struct ik__ccd_joint {
    ik_mat3 frame;       // C_i: P_i -> M_{i-1}
    ik_vec3 origin;      // o_i: P_i's origin in M_{i-1}
    ik_vec3 link_origin; // IK__CCD_LINK: C_i^T o_i
    ik_real offset[2];   // revolute: cos, sin of P_i's turn of x (turn's angle: q + offset)
    int type;            // the joint's ik_joint_type
    int qi;              // its first value in q
    int flags;           // IK__CCD_MOVE, IK__CCD_ANGLE, IK__CCD_FAST, IK__CCD_LINK
} ik__ccd_joint;

// A joint in one solve, in the scratch.
typedef struct ik__ccd_state {
    ik_real turn[2];         // revolute T_i: cos, sin of the current angle
    ik_real turn_stored[2];  // and of the angle in q (their difference is yet to be stored)
    ik_quat rot;             // ball T_i
    ik_vec3 goal;            // d_i: the target in P_i (this sweep)
    ik_real goal_axes[2][3]; // rows x and y of the target's axes in P_i (pose targets)
    ik_real goal_inv_xy;     // 1 / |d_xy|, 0 if d_xy is tiny or huge (FAST joints, this sweep)
    ik_vec3 goal_dir;        // and C_i (d.x, d.y, 0) / |d_xy| (goal_inv_xy > 0)
    bool moved;              // a ball joint that moved: q is behind rot
} ik__ccd_state;

// A prepared chain (ik_ccd_prepare()): this header, then an ik__ccd_joint per joint.
typedef struct ik__ccd_prepared {
    int valid;             // IK__CCD_PREPARED
    int dof;               // the chain's
    bool pose;             // prepared for pose targets (else position targets)
    bool revolute;         // lean passes: position target, free revolute and fixed joints only
    ik_chain chain;        // the caller's (its joints are read, not copied)
    ik_ccd_opts opts;      // checked
    ik_real gs;            // lengths are multiplied by gs
    ik_real reach, scale;  // the chain's reach; the length that sets gs
    ik_vec3 tip;           // the effector in M_{n-1}
    ik_real tip_rot[3][3]; // its axes there
} ik__ccd_prepared;

#define IK__CCD_HEAD IK__PREPARED_ROUND(sizeof(ik__ccd_prepared))

// Where a solve works: a state per joint, then q [dof]; in reals.
static size_t ik__ccd_work_reals(int joint_count, int dof)
{
    return IK__REALS_OF((size_t)joint_count * sizeof(ik__ccd_state)) + (size_t)dof;
}

// A prepared chain's bytes from its aligned start.
static size_t ik__ccd_prepared_bytes(int joint_count)
{
    return IK__CCD_HEAD + IK__PREPARED_ROUND((size_t)joint_count * sizeof(ik__ccd_joint));
}

// Bytes of scratch ik_ccd_solve() needs: a prepared chain and room to align it, then its work.
static size_t ik__ccd_scratch_bytes(int joint_count, int dof)
{
    return ik__ccd_prepared_bytes(joint_count) + IK__PREPARED_ALIGN +
           ik__ccd_work_reals(joint_count, dof) * sizeof(ik_real);
}

IKDEF ik_ccd_opts ik_default_ccd_opts(void)
{
    ik_ccd_opts o;
    o.max_sweeps = 100;
    o.tolerance = IK__CCD_TOL;
    o.rotation_tolerance = IK__CCD_TOL;
    o.position_weight = -1;
    o.orientation_weight = 1;
    o.length_scale = 0;
    o.max_angle = IK_PI;
    o.min_improvement = IK_R(1e-12);
    o._valid = IK__CCD_VALID;
    return o;
}

IKDEF size_t ik_ccd_prepared_size(const ik_chain *chain)
{
    if (ik_chain_dof(chain) < 0)
        return 0;
    return ik__ccd_prepared_bytes(chain->joint_count) + IK__PREPARED_ALIGN;
}

IKDEF size_t ik_ccd_scratch_size(const ik_chain *chain)
{
    int dof = ik_chain_dof(chain);
    if (dof < 0)
        return 0;
    return ik__ccd_scratch_bytes(chain->joint_count, dof);
}

// The axis basis B (columns) of the unit a (docs/ccd.md, "How a sweep is computed").
static void ik__ccd_basis(ik_vec3 a, ik_real b[3][3])
{
    ik_real s = a.z >= 0 ? 1 : -1, h = -1 / (s + a.z), k = a.x * a.y * h;
    b[0][0] = 1 + s * a.x * a.x * h;
    b[1][0] = s * k;
    b[2][0] = -s * a.x;
    b[0][1] = k;
    b[1][1] = s + a.y * a.y * h;
    b[2][1] = -a.y;
    b[0][2] = a.x;
    b[1][2] = a.y;
    b[2][2] = a.z;
}

// (x, y) / |(x, y)| into *c, *s; false (and untouched) for a zero or non-finite (x, y).
static bool ik__ccd_unit2(ik_real x, ik_real y, ik_real *c, ik_real *s)
{
    ik_real r2 = 0, m;
    if (IK_FABS(x) + IK_FABS(y) <= IK__SQUARABLE) // (beyond, the squares might overflow)
        r2 = x * x + y * y;
    if (!(r2 > IK__TINY2)) { // tiny, huge or NaN: rescale first
        m = IK_FABS(x) > IK_FABS(y) ? IK_FABS(x) : IK_FABS(y);
        if (!(m > 0 && m <= IK__REAL_MAX))
            return false;
        x /= m;
        y /= m;
        r2 = x * x + y * y;
        if (!(r2 >= 1 && r2 <= 2))
            return false;
    }
    m = 1 / IK_SQRT(r2);
    *c = x * m;
    *s = y * m;
    return true;
}

// A complex product: (c, s) *= (x, y).
static void ik__ccd_cmul(ik_real *c, ik_real *s, ik_real x, ik_real y)
{
    ik_real t = *c * x - *s * y;
    *s = *c * y + *s * x;
    *c = t;
}

// Links between revolute joints as turns about x (docs/ccd.md, "How a sweep is computed").
static void ik__ccd_links(ik__ccd_joint *joints, int joint_count)
{
    int i, k;
    for (i = 1; i < joint_count; i++) {
        ik__ccd_joint *p = &joints[i], *prev = &joints[i - 1];
        ik_real(*c)[3] = p->frame.m, cg = 1, sg = 0, cb, sb, ch, sh;
        ik_vec3 o = p->origin;
        if (p->type != IK_JOINT_REVOLUTE || prev->type != IK_JOINT_REVOLUTE)
            continue;
        cb = c[2][2];
        sb = IK_SQRT(c[0][2] * c[0][2] + c[1][2] * c[1][2]); // (entries of a rotation: no scaling)
        if (sb > 0) {                                        // else (1, 0): the axes are parallel
            cg = -c[1][2] / sb;
            sg = c[0][2] / sb;
        }
        ch = cg * c[0][0] + sg * c[1][0];
        sh = cb * (cg * c[1][0] - sg * c[0][0]) + sb * c[2][0];
        for (k = 0; k < 3; k++)
            c[0][k] = c[k][0] = k == 0;
        c[1][1] = c[2][2] = cb;
        c[2][1] = sb;
        c[1][2] = -sb;
        p->origin = o = ik_vec3_make(cg * o.x + sg * o.y, cg * o.y - sg * o.x, o.z);
        p->link_origin = ik_vec3_make(o.x, cb * o.y + sb * o.z, cb * o.z - sb * o.y);
        ik__ccd_cmul(&prev->offset[0], &prev->offset[1], cg, sg);
        ik__ccd_cmul(&p->offset[0], &p->offset[1], ch, sh);
        p->flags |= IK__CCD_LINK;
    }
}

// Joint j's C_i and o_i from the axis bases b = B_i and bp = B_{i-1} (no product with identity).
static void ik__ccd_joint_frame(ik__ccd_joint *p, const ik_joint *j, ik_real gs, const ik_mat3 *bp,
                                const ik_mat3 *b, const ik_mat3 *identity)
{
    ik_vec3 o = ik_vec3_scale(j->origin.pos, gs);
    ik_quat qr = j->origin.rot;
    const bool turned = !(qr.x == 0 && qr.y == 0 && qr.z == 0);
    ik_mat3 c = *b, bt; // origin.rot B_i
    if (turned) {
        c = ik_quat_to_mat3(qr);
        if (b != identity)
            c = ik__mat3_mul_rows(&c, &b->m[0][0]);
    }
    if (bp == identity) {
        p->frame = c;
        p->origin = o;
        return;
    }
    bt = ik_mat3_transpose(*bp);
    p->frame = turned || b != identity ? ik__mat3_mul_rows(&bt, &c.m[0][0]) : bt;
    p->origin = ik_mat3_mul_vec3(bt, o);
}

// Joint j's flags, and whether the chain still takes the lean passes (pp->revolute).
static void ik__ccd_joint_flags(ik__ccd_prepared *pp, ik__ccd_joint *p, const ik_joint *j)
{
    ik_real weight = ik__clamp(j->weight, 0, 1);
    p->flags = weight > 0 ? IK__CCD_MOVE : 0;
    if (j->type == IK_JOINT_REVOLUTE &&
        (weight < 1 || ik__finite(j->lo) || ik__finite(j->hi) || pp->opts.max_angle < IK_PI))
        p->flags |= IK__CCD_ANGLE;
    if (j->type == IK_JOINT_REVOLUTE && p->flags == IK__CCD_MOVE && !pp->pose)
        p->flags |= IK__CCD_FAST;
    if (!IK__FAST || pp->pose ||
        !(p->flags & IK__CCD_FAST || j->type == IK_JOINT_FIXED ||
          (j->type == IK_JOINT_REVOLUTE && weight == 0)))
        pp->revolute = false; // (the lean passes of chains of free hinges: a fast path)
}

// The constant frames (C_i, o_i, the effector in M_{n-1}) and every joint's flags.
static void ik__ccd_frames(ik__ccd_prepared *pp, ik__ccd_joint *joints)
{
    const ik_chain *chain = &pp->chain;
    ik_mat3 basis[3], tip_rot, bt;
    const ik_mat3 *const identity = &basis[0];
    const ik_mat3 *bp = identity; // B_{i-1}
    int i, at = 0;
    basis[0] = ik_mat3_identity();
    pp->revolute = true;
    for (i = 0; i < chain->joint_count; i++) {
        const ik_joint *j = &chain->joints[i];
        ik__ccd_joint *p = &joints[i];
        const ik_mat3 *b = identity; // B_i
        if ((j->type == IK_JOINT_REVOLUTE || j->type == IK_JOINT_PRISMATIC) &&
            !(j->axis.x == 0 && j->axis.y == 0 && j->axis.z > 0)) {
            b = &basis[1 + (i & 1)];
            ik__ccd_basis(j->axis, basis[1 + (i & 1)].m);
        }
        ik__ccd_joint_frame(p, j, pp->gs, bp, b, identity);
        p->type = (int)j->type;
        p->qi = at;
        p->offset[0] = 1;
        p->offset[1] = 0;
        ik__ccd_joint_flags(pp, p, j);
        at += ik_joint_type_dof(j->type);
        bp = b;
    }
    if (pp->revolute)
        ik__ccd_links(joints, chain->joint_count);
    bt = ik_mat3_transpose(*bp);
    pp->tip = ik_mat3_mul_vec3(bt, ik_vec3_scale(chain->tip.pos, pp->gs));
    tip_rot = ik_quat_to_mat3(chain->tip.rot);
    tip_rot = ik__mat3_mul_rows(&bt, &tip_rot.m[0][0]);
    memcpy(pp->tip_rot, tip_rot.m, sizeof pp->tip_rot);
}

// A prepared chain for these options (checked) and this kind of target, at its aligned start.
static void ik__ccd_prepare(ik__ccd_prepared *pp, const ik_chain *chain, const ik_ccd_opts *o,
                            bool pose)
{
    pp->chain = *chain;
    pp->opts = *o;
    pp->pose = pose;
    pp->dof = ik__chain_dof(chain);
    pp->reach = ik__chain_reach(chain);
    pp->scale = o->length_scale > 0 ? o->length_scale : pp->reach;
    if (!(ik__finite(pp->scale) && pp->scale > 0)) // no finite length: unit scale
        pp->scale = ik__finite(pp->reach) && pp->reach > 0 ? pp->reach : 1;
    // lengths in units of the mean distance between moving joints (docs/ccd.md, "Weights")
    pp->gs = (ik_real)ik__movable_joints(chain) / pp->scale;
    ik__ccd_frames(pp, (ik__ccd_joint *)(void *)((char *)pp + IK__CCD_HEAD));
    pp->valid = IK__CCD_PREPARED;
}

// What the passes of one solve share.
typedef struct ik__ccd_work {
    const ik__ccd_prepared *prepared;
    const ik_chain *chain;       // the prepared chain
    const ik__ccd_joint *joints; // [n] its constants
    ik__ccd_state *states;       // [n] in the scratch
    ik_real *q;                  // [dof] the state (free revolute joints: see turn)
    const ik_real *start;        // [dof] the caller's q (free revolute joints end within pi of it)
    int dof;
    const ik_target *target;
    bool pose;     // the target has a rotation
    bool revolute; // the lean passes (ik__ccd_prepared)
    ik_real gs;    // lengths are multiplied by gs
    ik_real wfix;  // fixed w_p for lengths in units of 1 / gs; < 0: Welman's 1 + rho
    ik_real wo, max_angle;
    ik_real noise_f2, noise_d2; // the effector's, target's squared rounding off an axis
    ik_vec3 pt;                 // the target in the root frame
} ik__ccd_work;

// The carried state from q clamped into the limits: revolute (cos, sin), balls' rotations.
static void ik__ccd_load(const ik__ccd_work *w)
{
    int i;
    for (i = 0; i < w->chain->joint_count; i++) {
        const ik_joint *j = &w->chain->joints[i];
        const ik__ccd_joint *p = &w->joints[i];
        ik__ccd_state *st = &w->states[i];
        ik_real *v = w->q + p->qi;
        st->moved = false;
        if (p->type == IK_JOINT_REVOLUTE || p->type == IK_JOINT_PRISMATIC)
            v[0] = ik__clamp(v[0], j->lo, j->hi);
        if (p->type == IK_JOINT_REVOLUTE) {
            ik_real c = IK_COS(v[0]), s = IK_SIN(v[0]);
            ik__ccd_cmul(&c, &s, p->offset[0], p->offset[1]);
            st->turn[0] = st->turn_stored[0] = c;
            st->turn[1] = st->turn_stored[1] = s;
        } else if (p->type == IK_JOINT_BALL) {
            st->rot = ik_quat_from_expmap(ik_vec3_make(v[0], v[1], v[2]));
            if (j->limit && !ik_ball_limit_contains(j->limit, st->rot)) { // (into the limits)
                st->rot = ik_ball_limit_project(j->limit, st->rot);
                st->moved = true;
            }
        }
    }
}

// q from the carried state (moved joints only); again: q was loaded back after a store.
static void ik__ccd_store(const ik__ccd_work *w, bool again)
{
    int i;
    for (i = 0; i < w->chain->joint_count; i++) {
        const ik__ccd_joint *p = &w->joints[i];
        ik__ccd_state *st = &w->states[i];
        ik_real *v = w->q + p->qi;
        if (p->type == IK_JOINT_REVOLUTE &&
            (p->flags & (IK__CCD_MOVE | IK__CCD_ANGLE)) == IK__CCD_MOVE) {
            ik_real c = st->turn[0], s = st->turn[1], d;
            ik_real c0 = st->turn_stored[0], s0 = st->turn_stored[1];
            if (c != c0 || s != s0) { // (a joint that has not moved keeps q bit for bit)
                v[0] += IK_ATAN2(s * c0 - c * s0, c * c0 + s * s0);
                // back within pi of the start by a whole turn (docs/ccd.md, "How a sweep...")
                d = again ? v[0] - w->start[p->qi] : 0;
                if (d > IK_PI)
                    v[0] -= 2 * IK_PI;
                else if (d < -IK_PI)
                    v[0] += 2 * IK_PI;
            }
            st->turn_stored[0] = c;
            st->turn_stored[1] = s;
        } else if (p->type == IK_JOINT_BALL && st->moved) {
            ik_vec3 lv = ik__quat_log(ik__quat_unitize(st->rot));
            v[0] = lv.x;
            v[1] = lv.y;
            v[2] = lv.z;
            st->moved = false;
        }
    }
}

// v turned by the angle whose (cos, sin) is (c, s) about z (with (c, -s): turned back).
static inline ik_vec3 ik__ccd_turn_z(ik_real c, ik_real s, ik_vec3 v)
{
    return ik_vec3_make(c * v.x - s * v.y, s * v.x + c * v.y, v.z);
}

// Rows x and y of m (the x and y coordinates of its columns) turned likewise.
static inline void ik__ccd_turn_rows(ik_real c, ik_real s, ik_mat3 *m)
{
    int k;
    for (k = 0; k < 3; k++) {
        ik_real x = m->m[0][k], y = m->m[1][k];
        m->m[0][k] = c * x - s * y;
        m->m[1][k] = s * x + c * y;
    }
}

// From P_i to M_{i-1}: C_i e + o_i.
static inline ik_vec3 ik__ccd_out(const ik__ccd_joint *p, ik_vec3 e)
{
    return ik_vec3_add(ik_mat3_mul_vec3(p->frame, e), p->origin);
}

// From M_{i-1} to P_i: C_i^T (x - o_i).
static inline ik_vec3 ik__ccd_in(const ik__ccd_joint *p, ik_vec3 x)
{
    const ik_real(*c)[3] = p->frame.m;
    ik_vec3 v = ik_vec3_sub(x, p->origin);
    return ik_vec3_make(c[0][0] * v.x + c[1][0] * v.y + c[2][0] * v.z,
                        c[0][1] * v.x + c[1][1] * v.y + c[2][1] * v.z,
                        c[0][2] * v.x + c[1][2] * v.y + c[2][2] * v.z);
}

// From M_{i-1} to P_i through an IK__CCD_LINK, the previous turn (c, s) not yet undone.
static inline ik_vec3 ik__ccd_link_in(const ik__ccd_joint *p, ik_vec3 x, ik_real c, ik_real s)
{
    ik_real cb = p->frame.m[1][1], sb = p->frame.m[2][1];
    return ik_vec3_make((c * x.x + s * x.y) - p->link_origin.x,
                        ((cb * c) * x.y - (cb * s) * x.x) + (sb * x.z - p->link_origin.y),
                        ((sb * s) * x.x - (sb * c) * x.y) + (cb * x.z - p->link_origin.z));
}

// The half-plane step's goal_inv_xy and goal_dir (goal_inv_xy 0 where d_xy is tiny or huge).
static inline void ik__ccd_goal_unit(const ik__ccd_work *w, const ik__ccd_joint *p,
                                     ik__ccd_state *st)
{
    const ik_real(*c)[3] = p->frame.m;
    ik_vec3 d = st->goal;
    ik_real dd2 = d.x * d.x + d.y * d.y, kd, t;
    st->goal_inv_xy = 0;
    if (!(dd2 > w->noise_d2 && dd2 <= IK__REAL_MAX))
        return;
    kd = 1 / IK_SQRT(dd2);
    if (p->flags & IK__CCD_LINK) {
        t = d.y * kd;
        st->goal_dir = ik_vec3_make(d.x * kd, c[1][1] * t, c[2][1] * t);
    } else {
        st->goal_dir.x = (c[0][0] * d.x + c[0][1] * d.y) * kd;
        st->goal_dir.y = (c[1][0] * d.x + c[1][1] * d.y) * kd;
        st->goal_dir.z = (c[2][0] * d.x + c[2][1] * d.y) * kd;
    }
    st->goal_inv_xy = kd;
}

// v = R v and, with axes, vr = R vr for the rotation R of the unit quaternion r.
static void ik__ccd_rotate(ik_quat r, bool axes, ik_vec3 *v, ik_mat3 *vr)
{
    ik_mat3 m;
    if (!axes) { // (a point alone: cheaper by the quaternion than by its matrix)
        *v = ik_quat_rotate(r, *v);
        return;
    }
    m = ik__quat_to_mat3_unit(r);
    *v = ik_mat3_mul_vec3(m, *v);
    *vr = ik__mat3_mul_rows(&m, &vr->m[0][0]);
}

// A prismatic or ball joint's T_i^-1: the target d (and its axes xr, unless NULL) in M_i.
static ik_vec3 ik__ccd_move_back(const ik__ccd_work *w, const ik__ccd_joint *p,
                                 const ik__ccd_state *st, ik_vec3 d, ik_mat3 *xr)
{
    if (p->type == IK_JOINT_PRISMATIC)
        d.z -= w->q[p->qi] * w->gs;
    else if (p->type == IK_JOINT_BALL)
        ik__ccd_rotate(ik_quat_conjugate(st->rot), xr != NULL, &d, xr);
    return d;
}

// The target's pass, root to tip: d_i and (pose) its axes in every P_i. lean: w->revolute.
IK__SIZED void ik__ccd_targets_pass(const ik__ccd_work *w, const bool lean)
{
    const bool pose = !lean && w->pose;
    ik_vec3 x = w->pt;      // the target in M_{i-1}, before the turn (cq, sq) when turned
    ik_mat3 xr;             // its axes (columns) there (pose)
    ik_real cq = 1, sq = 0; // the previous joint's turn T_{i-1}
    bool turned = lean;     // (lean: always, by (1, 0) after a fixed joint)
    int i;
    if (pose)
        xr = ik__quat_to_mat3_unit(w->target->rot);
    for (i = 0; i < w->chain->joint_count; i++) {
        const ik__ccd_joint *p = &w->joints[i];
        ik__ccd_state *st = &w->states[i];
        ik_vec3 d;
        if (lean && (p->flags & IK__CCD_LINK))
            d = ik__ccd_link_in(p, x, cq, sq);
        else
            d = ik__ccd_in(p, turned ? ik__ccd_turn_z(cq, -sq, x) : x);
        st->goal = x = d;
        cq = 1;
        sq = 0;
        turned = lean;
        if (pose) { // the axes in P_i
            ik_mat3 ct = ik_mat3_transpose(p->frame);
            xr = ik__mat3_mul_rows(&ct, &xr.m[0][0]);
            memcpy(st->goal_axes, xr.m, sizeof st->goal_axes);
        }
        if (p->type == IK_JOINT_REVOLUTE) { // into M_i: x = T_i^-1 d, which waits (cq, sq)
            if (lean || (p->flags & IK__CCD_FAST))
                ik__ccd_goal_unit(w, p, st);
            cq = st->turn[0];
            sq = st->turn[1];
            turned = true;
            if (pose)
                ik__ccd_turn_rows(cq, -sq, &xr);
        } else if (!lean) {
            x = ik__ccd_move_back(w, p, st, d, pose ? &xr : NULL);
        }
    }
}

// Welman's w_p at a joint (lengths in units of 1 / gs): 1 + rho, or the fixed weight.
static ik_real ik__ccd_wp(const ik__ccd_work *w, ik_vec3 d, ik_vec3 f)
{
    ik_real a, b, big;
    if (w->wfix >= 0)
        return w->wfix;
    a = ik_vec3_length(f);
    b = ik_vec3_length(d);
    big = a > b ? a : b;
    return 1 + (big > 0 ? (a < b ? a : b) / big : 0);
}

// A ball joint's best rotation rot scaled by its weight and limited to max_angle.
static inline IK__ALWAYS_INLINE ik_quat ik__ccd_ball_scale(const ik__ccd_work *w, const ik_joint *j,
                                                           ik_quat rot)
{
    ik_real wt = ik__clamp(j->weight, 0, 1);
    if (wt < 1 || w->max_angle < IK_PI) { // stiffness and the step limit scale the angle
        ik_vec3 lv = ik_vec3_scale(ik__quat_log(rot), wt);
        ik_real ang = ik_vec3_length(lv);
        if (ang > w->max_angle)
            lv = ik_vec3_scale(lv, w->max_angle / ang);
        rot = ik_quat_from_expmap(lv);
    }
    return rot;
}

// A ball joint's step in P_i: effector e, er (columns) toward d, dr (rows x, y); weighted, limited.
static ik_quat ik__ccd_ball_step(const ik__ccd_work *w, const ik_joint *j, ik_vec3 d,
                                 ik_real dr[2][3], ik_vec3 e, const ik_mat3 *er)
{
    ik_quat rot;
    if (w->pose) {
        ik_real s[3][3], wp = ik__ccd_wp(w, d, e);
        const ik_real *pe = &e.x, *pd = &d.x;
        ik_vec3 tz = ik_vec3_cross(ik_vec3_make(dr[0][0], dr[0][1], dr[0][2]),
                                   ik_vec3_make(dr[1][0], dr[1][1], dr[1][2]));
        const ik_real *t[3] = { dr[0], dr[1],
                                &tz.x }; // the target's axes: rows x, y, z = x cross y
        int a, b;
        for (a = 0; a < 3; a++)
            for (b = 0; b < 3; b++)
                s[a][b] =
                    wp * pe[a] * pd[b] +
                    w->wo * (er->m[a][0] * t[b][0] + er->m[a][1] * t[b][1] + er->m[a][2] * t[b][2]);
        rot = ik__horn_rotation(s);
    } else {
        rot = ik_quat_from_two_vectors(e, d);
    }
    return ik__ccd_ball_scale(w, j, rot);
}

// An IK__CCD_ANGLE joint's step toward the best angle's (cos, sin) (nc, ns), on q.
static void ik__ccd_angle_step(const ik__ccd_work *w, const ik__ccd_joint *p, ik__ccd_state *st,
                               const ik_joint *j, ik_real nc, ik_real ns)
{
    ik_real cq = st->turn[0], sq = st->turn[1];
    ik_real rc = nc * cq + ns * sq, rs = ns * cq - nc * sq, phi, next;
    ik_real *v = w->q + p->qi;
    phi = (rs == 0 && rc >= 0) ? 0 : IK_ATAN2(rs, rc);
    phi = ik__clamp(phi * ik__clamp(j->weight, 0, 1), -w->max_angle, w->max_angle);
    next = ik__clamp(*v + phi, j->lo, j->hi);
    if (next != *v) {
        *v = next;
        st->turn[0] = IK_COS(next);
        st->turn[1] = IK_SIN(next);
    }
}

// A revolute joint's move to the best angle, whose (cos, sin) is Z / |Z| (Z = zr + i zi).
static void ik__ccd_revolute_turn(const ik__ccd_work *w, const ik__ccd_joint *p, ik__ccd_state *st,
                                  const ik_joint *j, ik_real zr, ik_real zi)
{
    ik_real nc, ns;
    if (!ik__ccd_unit2(zr, zi, &nc, &ns))
        return;
    if (p->flags & IK__CCD_ANGLE) {
        ik__ccd_angle_step(w, p, st, j, nc, ns);
    } else {
        st->turn[0] = nc;
        st->turn[1] = ns;
    }
}

// A revolute joint's step, the best angle Z / |Z| from the effector f, fr (pose) in M_i.
static void ik__ccd_revolute_step(const ik__ccd_work *w, const ik__ccd_joint *p, ik__ccd_state *st,
                                  const ik_joint *j, ik_vec3 f, const ik_mat3 *fr)
{
    ik_vec3 d = st->goal;
    ik_real zr = d.x * f.x + d.y * f.y, zi = d.y * f.x - d.x * f.y, wp;
    int k;
    if (d.x * d.x + d.y * d.y <= w->noise_d2 || f.x * f.x + f.y * f.y <= w->noise_f2)
        zr = zi = 0; // on the axis: the position term is rounding noise
    if (w->pose) {
        wp = ik__ccd_wp(w, d, f);
        zr *= wp;
        zi *= wp;
        for (k = 0; k < 3; k++) {
            zr += w->wo * (st->goal_axes[0][k] * fr->m[0][k] + st->goal_axes[1][k] * fr->m[1][k]);
            zi += w->wo * (st->goal_axes[1][k] * fr->m[0][k] - st->goal_axes[0][k] * fr->m[1][k]);
        }
    }
    ik__ccd_revolute_turn(w, p, st, j, zr, zi);
}

// The half-plane step (IK__CCD_FAST) and f_{i-1}; where d_xy or f_xy is tiny or huge, the
// revolute step (a FAST joint reads neither its ik_joint nor axes).
static ik_vec3 ik__ccd_half_plane_edge(const ik__ccd_work *w, const ik__ccd_joint *p,
                                       ik__ccd_state *st, ik_vec3 f)
{
    ik__ccd_revolute_step(w, p, st, NULL, f, NULL);
    return ik__ccd_out(p, ik__ccd_turn_z(st->turn[0], st->turn[1], f));
}

IK__SIZED ik_vec3 ik__ccd_half_plane(const ik__ccd_work *w, const ik__ccd_joint *p,
                                     ik__ccd_state *st, ik_vec3 f)
{
    const ik_real(*c)[3] = p->frame.m;
    ik_vec3 d = st->goal;
    ik_real m2 = f.x * f.x + f.y * f.y, m, r;
    if (!(st->goal_inv_xy > 0) || !(m2 > w->noise_f2))
        return ik__ccd_half_plane_edge(w, p, st, f);
    m = IK_SQRT(m2);
    r = st->goal_inv_xy / m;
    st->turn[0] = (d.x * f.x + d.y * f.y) * r;
    st->turn[1] = (d.y * f.x - d.x * f.y) * r;
    return ik_vec3_make(m * st->goal_dir.x + (c[0][2] * f.z + p->origin.x),
                        m * st->goal_dir.y + (c[1][2] * f.z + p->origin.y),
                        m * st->goal_dir.z + (c[2][2] * f.z + p->origin.z));
}

// A prismatic joint's move by lam (model units) scaled by its weight, within its limits.
static void ik__ccd_slide_by(const ik__ccd_work *w, const ik__ccd_joint *p, const ik_joint *j,
                             ik_real lam)
{
    ik_real *v = w->q + p->qi;
    *v = ik__clamp(*v + lam * ik__clamp(j->weight, 0, 1), j->lo, j->hi);
}

// A prismatic joint's step (with step); returns the effector's z in P_i from its z in M_i.
static ik_real ik__ccd_slide(const ik__ccd_work *w, const ik__ccd_joint *p, const ik__ccd_state *st,
                             const ik_joint *j, bool step, ik_real fz)
{
    const ik_real *v = w->q + p->qi;
    if (step)
        ik__ccd_slide_by(w, p, j, (st->goal.z - (fz + *v * w->gs)) / w->gs);
    return fz + *v * w->gs;
}

// A ball joint's move by rot (in P_i) within its limits (to the nearest allowed rotation); the
// move made.
static inline IK__ALWAYS_INLINE ik_quat ik__ccd_ball_move(ik__ccd_state *st, const ik_joint *j,
                                                          ik_quat rot)
{
    ik_quat next = ik__quat_unitize(ik_quat_mul(rot, st->rot));
    if (j->limit) {
        next = ik_ball_limit_project(j->limit, next);
        rot = ik__quat_unitize(ik_quat_mul(next, ik_quat_conjugate(st->rot)));
    }
    st->rot = next;
    st->moved = true;
    return rot;
}

// A ball joint: the effector e and its axes er (pose) from M_i into P_i, and with step its step.
static void ik__ccd_ball(const ik__ccd_work *w, ik__ccd_state *st, const ik_joint *j, bool step,
                         ik_vec3 *e, ik_mat3 *er)
{
    ik_quat rot;
    ik__ccd_rotate(st->rot, w->pose, e, er);
    if (!step)
        return;
    rot = ik__ccd_ball_move(st, j, ik__ccd_ball_step(w, j, st->goal, st->goal_axes, *e, er));
    ik__ccd_rotate(rot, w->pose, e, er);
}

// The effector's pass, tip to root, with move each joint's step: its f, fr at the root.
IK__SIZED void ik__ccd_sweep_pass(const ik__ccd_work *w, bool move, const bool lean, ik_vec3 *out_f,
                                  ik_mat3 *out_fr)
{
    const bool pose = !lean && w->pose;
    ik_vec3 f = w->prepared->tip, e; // the effector in M_i, in P_i
    ik_mat3 fr, er;                  // its axes (pose)
    int i;
    if (pose)
        memcpy(fr.m, w->prepared->tip_rot, sizeof fr.m);
    for (i = w->chain->joint_count - 1; i >= 0; i--) {
        const ik__ccd_joint *p = &w->joints[i];
        ik__ccd_state *st = &w->states[i];
        const ik_joint *j = &w->chain->joints[i];
        bool step = move && (p->flags & IK__CCD_MOVE);
        if (move && (p->flags & IK__CCD_FAST)) { // (position targets only)
            f = ik__ccd_half_plane(w, p, st, f);
            continue;
        }
        e = f;
        if (pose)
            er = fr;
        if (p->type == IK_JOINT_REVOLUTE) {
            if (!lean && step)
                ik__ccd_revolute_step(w, p, st, j, f, &fr);
            e = ik__ccd_turn_z(st->turn[0], st->turn[1], f);
            if (pose)
                ik__ccd_turn_rows(st->turn[0], st->turn[1], &er);
        } else if (!lean && p->type == IK_JOINT_PRISMATIC) {
            e.z = ik__ccd_slide(w, p, st, j, step, f.z);
        } else if (!lean && p->type == IK_JOINT_BALL) {
            ik__ccd_ball(w, st, j, step, &e, &er);
        }
        f = ik__ccd_out(p, e); // f_{i-1} = C_i e_i + o_i
        if (pose)
            fr = ik__mat3_mul_rows(&p->frame, &er.m[0][0]);
    }
    *out_f = f;
    if (pose)
        *out_fr = fr;
}

// The effector's pass, lean where w->revolute; with move its steps (after the target's pass).
static void ik__ccd_sweep(const ik__ccd_work *w, bool move, ik_vec3 *out_f, ik_mat3 *out_fr)
{
    if (w->revolute)
        ik__ccd_sweep_pass(w, move, true, out_f, out_fr);
    else
        ik__ccd_sweep_pass(w, move, false, out_f, out_fr);
}

// The options are in range.
static bool ik__ccd_opts_valid(const ik_ccd_opts *o)
{
    return !(o->_valid != IK__CCD_VALID || o->max_sweeps < 1 || !ik__bounded(o->tolerance) ||
             o->tolerance < 0 || !ik__bounded(o->rotation_tolerance) || o->rotation_tolerance < 0 ||
             !ik__bounded(o->position_weight) || !ik__bounded(o->orientation_weight) ||
             o->orientation_weight < 0 || !ik__bounded(o->length_scale) || o->length_scale < 0 ||
             !ik__finite(o->max_angle) || !(o->max_angle > 0 && o->max_angle <= IK_PI) ||
             !ik__finite(o->min_improvement) ||
             !(o->min_improvement >= 0 && o->min_improvement < 1));
}

// What the stopping tests of one solve read and keep (docs/ccd.md, "Stopping").
typedef struct ik__ccd_progress {
    ik_real wbase, ps;     // the position error's weight and length scale (ik__pose_error())
    ik_real span, slack;   // the lengths involved; the carried state's rounding (position)
    ik_real rslack;        // and the carried axes'
    ik_real err, best_err; // the carried state's error, the least so far
    ik_real pos_err, rot_err;
    ik_real refused; // the error (by FK) of the last state found not converged
    ik_real last;    // the carried state's error a sweep before (0: sweep 0 is not falling)
    int idle;        // sweeps in a row without improvement
    bool again;      // q was loaded back after a store
    ik_status status;
} ik__ccd_progress;

// The carried state's rounding against ik_chain_fk(), and the noise off a joint's axis.
static void ik__ccd_bounds(ik__ccd_work *w, ik__ccd_progress *pr)
{
    const int n = w->chain->joint_count;
    ik_real where = ik_vec3_length(w->target->pos) + ik_vec3_length(w->chain->joints[0].origin.pos),
            size = ik__finite(w->prepared->reach) ? w->prepared->reach : w->prepared->scale, nf, nd;
    pr->span = where + size;
    pr->slack = (ik_real)(64 * n) * IK_EPSILON * pr->span;
    pr->rslack = (ik_real)(64 * n) * IK_EPSILON;
    nf = (ik_real)(4 * n) * IK_EPSILON * w->gs * size; // the chain's own rounding
    nd = nf + 4 * IK_EPSILON * w->gs * where;          // and the target's root coordinates'
    w->noise_f2 = nf * nf > IK__TINY2 ? nf * nf : IK__TINY2;
    w->noise_d2 =
        nd * nd > IK__TINY2 ? (nd * nd <= IK__REAL_MAX ? nd * nd : IK__REAL_MAX) : IK__TINY2;
}

// Everything a solve's sweeps read and its starting state; its states and q in work_mem.
static void ik__ccd_setup(ik__ccd_work *w, ik__ccd_progress *pr, const ik__ccd_prepared *pp,
                          const ik_target *target, const ik_real *q_io, ik_real *work_mem)
{
    const ik_ccd_opts *o = &pp->opts;
    w->prepared = pp;
    w->chain = &pp->chain;
    w->joints = (const ik__ccd_joint *)(const void *)((const char *)pp + IK__CCD_HEAD);
    w->states = (ik__ccd_state *)(void *)work_mem;
    w->q = work_mem + IK__REALS_OF((size_t)w->chain->joint_count * sizeof(ik__ccd_state));
    w->dof = pp->dof;
    memcpy(w->q, q_io, (size_t)w->dof * sizeof(ik_real));
    w->start = q_io;
    w->target = target;
    w->pose = pp->pose;
    w->revolute = pp->revolute;
    w->gs = pp->gs;
    // a fixed w_p is for lengths in model units (ps = 1)
    pr->ps = o->position_weight >= 0 ? 1 : w->gs;
    pr->wbase = o->position_weight >= 0 ? o->position_weight : 1;
    w->wfix = o->position_weight >= 0 ? o->position_weight / w->gs / w->gs : -1;
    w->wo = w->pose ? o->orientation_weight : 0;
    w->max_angle = o->max_angle;
    w->pt = ik_vec3_scale(target->pos, w->gs);
    ik__ccd_load(w);
    ik__ccd_bounds(w, pr);
    pr->err = pr->best_err = pr->pos_err = pr->rot_err = pr->last = 0;
    pr->refused = IK_INFINITY;
    pr->idle = 0;
    pr->again = false;
    pr->status = IK_STATUS_MAX_ITERATIONS;
}

// The error of the carried state (f, fr) after a sweep; true when worth asking the forward
// kinematics, or the last sweep (*final) (docs/ccd.md, "Stopping").
static bool ik__ccd_progress_made(const ik__ccd_work *w, ik__ccd_progress *pr, const ik_ccd_opts *o,
                                  int sweep, ik_vec3 f, const ik_mat3 *fr, bool *final)
{
    ik_xform e;
    bool within, band;
    e.pos = ik_vec3_make(f.x / w->gs, f.y / w->gs, f.z / w->gs);
    e.rot = w->pose ? ik_quat_from_mat3(*fr) : ik_quat_identity();
    pr->err = ik__pose_error(w->target, e, pr->wbase, pr->ps, w->wo, &pr->pos_err, &pr->rot_err);
    if (sweep > 0)
        pr->idle = pr->err < pr->best_err * (1 - o->min_improvement) ? 0 : pr->idle + 1;
    if (sweep == 0 || pr->err < pr->best_err)
        pr->best_err = pr->err;
    within = pr->pos_err <= o->tolerance && (!w->pose || pr->rot_err <= o->rotation_tolerance);
    band = pr->pos_err <= o->tolerance + pr->slack &&
           (!w->pose || pr->rot_err <= o->rotation_tolerance + pr->rslack) &&
           !(pr->err >= pr->refused) &&
           (within || !(pr->err < pr->last / 16) ||
            (pr->pos_err <= IK_EPSILON * pr->span && (!w->pose || pr->rot_err <= 4 * IK_EPSILON)));
    pr->last = pr->err;
    *final = pr->idle >= 3 || sweep == o->max_sweeps;
    return band || *final;
}

// Whether the carried state is within the tolerance by more than its rounding and the angles'.
static bool ik__ccd_surely_within(const ik__ccd_work *w, const ik__ccd_progress *pr,
                                  const ik_ccd_opts *o)
{
    ik_real turn = 0; // the angles' rounding, summed: radians
    int i;
    for (i = 0; i < w->chain->joint_count; i++)
        if (w->joints[i].type == IK_JOINT_REVOLUTE)
            turn += 2 * IK_EPSILON * IK_FABS(w->q[w->joints[i].qi]);
    return pr->pos_err <= o->tolerance - pr->slack - turn * pr->span &&
           (!w->pose || pr->rot_err <= o->rotation_tolerance - pr->rslack - turn);
}

// q stored and its errors by forward kinematics (without info: not where the stop is decided, a
// fast path); true to stop (status set), else on from q (docs/ccd.md, "Stopping").
static bool ik__ccd_check(ik__ccd_work *w, ik__ccd_progress *pr, const ik_ccd_opts *o, int sweep,
                          bool final, const ik_solve_info *info)
{
    ik__ccd_store(w, pr->again);
    if (IK__FAST && !info && !final && ik__finite(w->prepared->reach) &&
        pr->pos_err <= o->tolerance - pr->slack)
        final = ik__ccd_surely_within(w, pr, o);
    if (IK__FAST && !info && final)
        return true;
    pr->err = ik__pose_error( // (a position target reads no rotation: ow 0 makes none)
        w->target,
        ik__jacobian(w->chain, NULL, w->q, 6, w->dof, NULL, false, w->pose ? 1 : 0, NULL, NULL,
                     NULL),
        pr->wbase, pr->ps, w->wo, &pr->pos_err, &pr->rot_err);
    if (pr->pos_err <= o->tolerance && (!w->pose || pr->rot_err <= o->rotation_tolerance)) {
        pr->status = IK_STATUS_CONVERGED;
        return true;
    }
    if (pr->idle >= 3) {
        pr->status = IK_STATUS_STALLED;
        return true;
    }
    if (sweep == o->max_sweeps)
        return true;
    pr->refused = pr->err;
    pr->again = true;
    ik__ccd_load(w); // not converged after all: go on from q
    return false;
}

// The result: the status (unreachable where not converged and beyond reach), q, info.
static ik_result ik__ccd_finish(const ik__ccd_work *w, ik__ccd_progress *pr, const ik_ccd_opts *o,
                                int sweep, ik_real *q_io, ik_solve_info *info)
{
    int i;
    if (info && pr->status != IK_STATUS_CONVERGED &&
        ik__beyond_reach(w->chain, w->target->pos, w->prepared->reach, o->tolerance))
        pr->status = IK_STATUS_UNREACHABLE;
    for (i = 0; i < w->dof; i++)
        if (!ik__bounded(w->q[i]))
            return IK_ERR_NUMERIC;
    memcpy(q_io, w->q, (size_t)w->dof * sizeof(ik_real));
    if (info) {
        info->status = pr->status;
        info->iterations = sweep;
        info->position_error = pr->pos_err;
        info->rotation_error = pr->rot_err;
    }
    return IK_OK;
}

// A solve on a prepared chain (inputs checked), working in work_mem (ik__ccd_work_reals()).
static ik_result ik__ccd_run(const ik__ccd_prepared *pp, const ik_target *target, ik_real *q_io,
                             ik_real *work_mem, ik_solve_info *info)
{
    ik__ccd_work w;
    ik__ccd_progress pr;
    ik_mat3 fr; // the carried state's effector: its axes (pose) and position
    ik_vec3 f;
    int sweep;
    bool final;
    ik__ccd_setup(&w, &pr, pp, target, q_io, work_mem);
    ik__ccd_sweep(&w, false, &f, &fr); // the starting state's effector
    for (sweep = 0;; sweep++) {
        if (ik__ccd_progress_made(&w, &pr, &pp->opts, sweep, f, &fr, &final) &&
            ik__ccd_check(&w, &pr, &pp->opts, sweep, final, info))
            break;
        if (w.revolute)
            ik__ccd_targets_pass(&w, true);
        else
            ik__ccd_targets_pass(&w, false);
        ik__ccd_sweep(&w, true, &f, &fr);
    }
    return ik__ccd_finish(&w, &pr, &pp->opts, sweep, q_io, info);
}

IKDEF ik_result ik_ccd_solve(const ik_chain *chain, const ik_target *target_in,
                             const ik_ccd_opts *opts, ik_real *q_io, void *scratch,
                             size_t scratch_size, ik_solve_info *info)
{
    ik_ccd_opts o = opts ? *opts : ik_default_ccd_opts();
    ik_target target;
    ik__ccd_prepared *pp;
    int n, dof;
    ik_result r = ik__chain_state_validate(chain, q_io, &dof);
    if (r != IK_OK)
        return r;
    n = chain->joint_count;
    r = ik__solver_validate(chain, dof, q_io, target_in, -1, ik__ccd_opts_valid(&o), NULL, scratch,
                            scratch_size, ik__ccd_scratch_bytes(n, dof), info, &target);
    if (r != IK_OK)
        return r;
    // the chain prepared at the scratch's start, solved in the rest
    pp = (ik__ccd_prepared *)(void *)((char *)scratch + ik__prepared_align_skip(scratch));
    ik__ccd_prepare(pp, chain, &o, target.use_rotation);
    return ik__ccd_run(pp, &target, q_io,
                       (ik_real *)(void *)((char *)pp + ik__ccd_prepared_bytes(n)), info);
}

IKDEF ik_result ik_ccd_prepare(const ik_chain *chain, const ik_ccd_opts *opts, bool pose_targets,
                               void *prepared, size_t prepared_size)
{
    ik_ccd_opts o = opts ? *opts : ik_default_ccd_opts();
    ik_result r = ik_chain_validate(chain);
    if (r != IK_OK)
        return r;
    if (!ik__ccd_opts_valid(&o))
        return IK_ERR_BAD_OPTS;
    if (!prepared)
        return IK_ERR_NULL_ARG;
    if (ik__solver_overlap(chain, NULL, 0, NULL, NULL, prepared, prepared_size))
        return IK_ERR_BAD_ARG;
    if (prepared_size < ik__ccd_prepared_bytes(chain->joint_count) + IK__PREPARED_ALIGN)
        return IK_ERR_SCRATCH_TOO_SMALL;
    ik__ccd_prepare(
        (ik__ccd_prepared *)(void *)((char *)prepared + ik__prepared_align_skip(prepared)), chain,
        &o, pose_targets);
    return IK_OK;
}

IKDEF ik_result ik_ccd_solve_prepared(const void *prepared, const ik_target *target_in,
                                      ik_real *q_io, void *scratch, size_t scratch_size,
                                      ik_solve_info *info)
{
    const ik__ccd_prepared *pp;
    ik_target target;
    size_t bytes, reals;
    ik_result r;
    if (!prepared)
        return IK_ERR_NULL_ARG;
    pp = (const ik__ccd_prepared *)(const void *)((const char *)prepared +
                                                  ik__prepared_align_skip(prepared));
    if (pp->valid != IK__CCD_PREPARED)
        return IK_ERR_BAD_ARG;
    bytes = ik__ccd_prepared_bytes(pp->chain.joint_count);
    reals = ik__ccd_work_reals(pp->chain.joint_count, pp->dof);
    if ((scratch && ik__overlap(pp, bytes, scratch, scratch_size)) || // (writes would change it)
        ik__overlap(q_io, (size_t)pp->dof * sizeof(ik_real), pp, bytes) ||
        ik__overlap(info, info ? sizeof *info : 0, pp, bytes))
        return IK_ERR_BAD_ARG;
    r = ik__state_validate(q_io, pp->dof);
    if (r != IK_OK)
        return r;
    r = ik__solver_validate(&pp->chain, pp->dof, q_io, target_in, pp->pose, true, NULL, scratch,
                            scratch_size, (reals + 1) * sizeof(ik_real), info, &target);
    if (r != IK_OK)
        return r;
    return ik__ccd_run(pp, &target, q_io, ik__scratch_reals(scratch, scratch_size, reals), info);
}

// ---- CCD on skeletons (docs/skeletons.md, "CCD")

// Priority 1's terms' weight in a sweep where priority 0 has effectors (docs/skeletons.md, "CCD").
#define IK__CCD_LOW IK_R(1e-2)

// One effector in a skeleton's CCD sweep, in the root frame with lengths times gs.
typedef struct ik__ccd_end {
    ik_vec3 pos;     // its origin
    ik_mat3 rot;     // POSE: its joint's rotation (its axes, against the goal's G O^T)
    ik_vec3 axis;    // AIM, DIRECTION, FREE_AXIS: its axis (each moved only where read)
    ik_vec3 goal;    // its goal's position or point
    ik_vec3 local;   // its axis in its joint's frame (O axis)
    ik_real weight;  // its terms' factor: 1, IK__CCD_LOW (priority 1), 0 (left out)
    ik_real pos_err; // at q: the distance from its goal
    ik_real rot_err; // and the angle
    int at;          // the sweep's joint's ancestor or self on its path to the root
} ik__ccd_end;

// A skeleton's CCD solve: the chain CCD's work over its joints (no prepared chain), its effectors.
typedef struct ik__ccd_tree {
    ik__ccd_work w;           // the joints' constants and states, q, the weights
    ik__jac_work goals_work;  // what ik__goal_make() and ik__goal_rows() read: the frames, ow 1
    ik_chain chain;           // the skeleton's joints
    const int *parents;       // NULL: a chain
    ik__effector_goal *goals; // [count] blended from the start
    ik__ccd_end *ends;        // [count]
    ik_real *frames;          // [12 n] the kinematics pass's frames at q
    int count;
    const ik_ccd_opts *o;
    ik_real wbase, ps; // the error's position weight and length scale (as ik__ccd_progress's)
} ik__ccd_tree;

// The reals of a skeleton CCD solve's scratch: joints' constants and states, q, frames, effectors.
static size_t ik__ccd_tree_reals(int joint_count, int dof, int count)
{
    return IK__REALS_OF((size_t)joint_count * sizeof(ik__ccd_joint)) +
           ik__ccd_work_reals(joint_count, dof) + 12 * (size_t)joint_count +
           (size_t)count * (IK__GOAL_REALS + IK__REALS_OF(sizeof(ik__ccd_end)));
}

IKDEF size_t ik_skeleton_ccd_scratch_size(const ik_skeleton *skeleton, int effector_count)
{
    int dof = ik_skeleton_dof(skeleton);
    if (dof < 0 || effector_count < 1 || effector_count > IK_MAX_EFFECTORS)
        return 0;
    return (ik__ccd_tree_reals(skeleton->joint_count, dof, effector_count) + 1) * sizeof(ik_real);
}

// The joints' constants (no frames: a skeleton's sweep works in the root frame) and the noise
// off an axis (as ik__ccd_bounds(), the farthest goal for the target).
static void ik__ccd_tree_joints(ik__ccd_tree *t, ik__ccd_joint *joints, ik_real where)
{
    ik__ccd_work *w = &t->w;
    ik__ccd_prepared head; // (what ik__ccd_joint_flags() reads: the options, pose)
    ik_real size = ik__skeleton_size(&t->chain, t->parents), scale, nf, nd;
    int i, at = 0;
    head.opts = *t->o;
    head.pose = true; // (no half-plane steps)
    for (i = 0; i < t->chain.joint_count; i++) {
        ik__ccd_joint *p = &joints[i];
        p->type = (int)t->chain.joints[i].type;
        p->qi = at;
        p->offset[0] = 1;
        p->offset[1] = 0;
        ik__ccd_joint_flags(&head, p, &t->chain.joints[i]);
        at += ik_joint_type_dof(t->chain.joints[i].type);
    }
    w->joints = joints;
    scale = t->o->length_scale > 0 ? t->o->length_scale : size;
    w->gs = (ik_real)ik__movable_joints(&t->chain) / (ik__finite(scale) && scale > 0 ? scale : 1);
    nf = (ik_real)(4 * t->chain.joint_count) * IK_EPSILON * w->gs * size; // (its own rounding)
    nd = nf + 4 * IK_EPSILON * w->gs * where;
    w->noise_f2 = nf * nf > IK__TINY2 ? nf * nf : IK__TINY2;
    w->noise_d2 =
        nd * nd > IK__TINY2 ? (nd * nd <= IK__REAL_MAX ? nd * nd : IK__REAL_MAX) : IK__TINY2;
}

// q from the carried state, the frames at q, each effector's errors; the error the sweeps lower,
// as ik__pose_error() (a pose's axes 8 sin^2(angle / 2), an axis 4), summed; *met: all within
// the tolerances.
static ik_real ik__ccd_tree_measure(ik__ccd_tree *t, bool *met)
{
    const ik__ccd_work *w = &t->w;
    ik_real err = 0, e[6], half;
    int k;
    ik__ccd_store(w, true);
    ik__jacobian(&t->chain, NULL, w->q, 6, w->dof, NULL, false, 1, NULL, NULL, &t->goals_work.tree);
    *met = true;
    for (k = 0; k < t->count; k++) {
        const ik__effector_goal *g = &t->goals[k];
        ik__ccd_end *s = &t->ends[k];
        ik__goal_rows(&t->goals_work, g, NULL, e);
        ik__goal_errors(g, e, &s->pos_err, &s->rot_err);
        *met = *met && s->pos_err <= t->o->tolerance && s->rot_err <= t->o->rotation_tolerance;
        half = IK_SIN(s->rot_err / 2) * g->rw;
        err += s->weight * (t->wbase * (g->pw * t->ps * s->pos_err) * (g->pw * t->ps * s->pos_err) +
                            w->wo * (g->rot_rows == 3 ? 8 : 4) * half * half);
    }
    return err;
}

// The effectors' frames at q (from the pass's frames), each at its own joint.
static void ik__ccd_tree_ends(ik__ccd_tree *t)
{
    int k;
    for (k = 0; k < t->count; k++) {
        const ik__effector_goal *g = &t->goals[k];
        const ik_real *f = t->frames + 12 * g->joint;
        ik__ccd_end *s = &t->ends[k];
        memcpy(&s->rot.m[0][0], f, 9 * sizeof *f);
        s->pos =
            ik_vec3_add(ik_vec3_make(f[9], f[10], f[11]), ik_mat3_mul_vec3(s->rot, g->offset.pos));
        s->pos = ik_vec3_scale(s->pos, t->w.gs);
        s->axis = ik_mat3_mul_vec3(s->rot, s->local);
        s->at = g->joint;
    }
}

// Whether effector k is in joint i's subtree (the sweep visits i in decreasing order).
static bool ik__ccd_tree_below(ik__ccd_tree *t, int k, int i)
{
    ik__ccd_end *s = &t->ends[k];
    while (s->at > i)
        s->at = t->parents ? t->parents[s->at] : s->at - 1;
    return s->at == i && s->weight > 0;
}

// Effector k's vector pairs about o: its current e[m] and its goal's d[m], their weights wt[m];
// first *npos pairs of points (a position; an aim's point along its axis as far as the point it
// looks at, and that point), then pairs of directions. Returns m, 0 to 4 (docs/skeletons.md,
// "CCD").
static int ik__ccd_tree_pairs(const ik__ccd_tree *t, int k, ik_vec3 o, ik_vec3 *e, ik_vec3 *d,
                              ik_real *wt, int *npos)
{
    const ik__effector_goal *g = &t->goals[k];
    const ik__ccd_end *s = &t->ends[k];
    const ik_real wo = s->weight * t->w.wo * g->rw * g->rw;
    ik_real far;
    int m = 0, c;
    d[0] = ik_vec3_sub(s->goal, o);
    if (g->pos_rows) {
        e[0] = ik_vec3_sub(s->pos, o);
        wt[m++] = s->weight * g->pw * g->pw * ik__ccd_wp(&t->w, d[0], e[0]);
    } else if (g->rot_rows && g->kind == IK_EFFECTOR_AIM) {
        far = ik_vec3_length(ik_vec3_sub(s->goal, s->pos));
        e[0] = ik_vec3_add_scaled(ik_vec3_sub(s->pos, o), s->axis, far);
        wt[m++] = far > 64 * IK_EPSILON ? wo / far / far : 0; // (|e - d| / far: the chord)
    }
    *npos = m;
    if (g->rot_rows == 3) {
        for (c = 0; c < 3; c++, m++) {
            e[m] = ik_vec3_make(s->rot.m[0][c], s->rot.m[1][c], s->rot.m[2][c]);
            d[m] = ik_vec3_make(g->rot.m[0][c], g->rot.m[1][c], g->rot.m[2][c]);
            wt[m] = wo;
        }
    } else if (g->rot_rows == 2 && g->kind != IK_EFFECTOR_AIM) {
        e[m] = s->axis;
        d[m] = g->dir;
        wt[m++] = wo;
    }
    return m;
}

// The effectors below joint i turned by m about o (lengths times gs) or moved along by.
static void ik__ccd_tree_move(ik__ccd_tree *t, int i, const ik_mat3 *m, ik_vec3 o, ik_vec3 along)
{
    int k;
    for (k = 0; k < t->count; k++) {
        ik__ccd_end *s = &t->ends[k];
        if (s->at != i || !(s->weight > 0))
            continue;
        if (!m) {
            s->pos = ik_vec3_add(s->pos, along);
            continue;
        }
        s->pos = ik_vec3_add(o, ik_mat3_mul_vec3(*m, ik_vec3_sub(s->pos, o)));
        if (t->goals[k].rot_rows == 3)
            s->rot = ik_mat3_mul(*m, s->rot);
        else if (t->goals[k].rot_rows == 2)
            s->axis = ik_mat3_mul_vec3(*m, s->axis);
    }
}

// A revolute joint's step about its axis a through o: Z summed over the effectors below it.
static void ik__ccd_tree_revolute(ik__ccd_tree *t, int i, ik_vec3 a, ik_vec3 o)
{
    const ik__ccd_joint *p = &t->w.joints[i];
    ik__ccd_state *st = &t->w.states[i];
    ik_vec3 e[4], d[4], ae, ad;
    ik_real wt[4], zr = 0, zi = 0, c0 = st->turn[0], s0 = st->turn[1], dc, ds;
    ik_mat3 m;
    int k, n, c, npos;
    for (k = 0; k < t->count; k++) {
        n = ik__ccd_tree_below(t, k, i) ? ik__ccd_tree_pairs(t, k, o, e, d, wt, &npos) : 0;
        for (c = 0; c < n; c++) {
            ae = ik_vec3_cross(a, e[c]); // (across the axis: k2 - k1 = ae . ad, k3 = ae . d)
            ad = ik_vec3_cross(a, d[c]);
            if (c < npos &&
                (ik_vec3_length2(ae) <= t->w.noise_f2 || ik_vec3_length2(ad) <= t->w.noise_d2))
                continue; // on the axis: the position term is rounding noise
            zr += wt[c] * ik_vec3_dot(ae, ad);
            zi += wt[c] * ik_vec3_dot(ae, d[c]);
        }
    }
    ik__ccd_revolute_turn(&t->w, p, st, &t->chain.joints[i], zr * c0 - zi * s0, zr * s0 + zi * c0);
    if (st->turn[0] == c0 && st->turn[1] == s0)
        return;
    dc = st->turn[0] * c0 + st->turn[1] * s0;
    ds = st->turn[1] * c0 - st->turn[0] * s0;
    m = ik__mat3_axis_angle(a, dc, ds);
    ik__ccd_tree_move(t, i, &m, o, a);
}

// A prismatic joint's step along its axis a: the weighted mean of the point pairs' (d - e) . a.
static void ik__ccd_tree_slide(ik__ccd_tree *t, int i, ik_vec3 a, ik_vec3 o)
{
    const ik__ccd_joint *p = &t->w.joints[i];
    ik_vec3 e[4], d[4];
    ik_real wt[4], sum = 0, total = 0, *v = t->w.q + p->qi, was = *v;
    int k, npos = 0;
    for (k = 0; k < t->count; k++)
        if (ik__ccd_tree_below(t, k, i) && ik__ccd_tree_pairs(t, k, o, e, d, wt, &npos) > 0 &&
            npos > 0) {
            sum += wt[0] * ik_vec3_dot(ik_vec3_sub(d[0], e[0]), a);
            total += wt[0];
        }
    if (!(total > 0))
        return;
    ik__ccd_slide_by(&t->w, p, &t->chain.joints[i], sum / total / t->w.gs);
    ik__ccd_tree_move(t, i, NULL, o, ik_vec3_scale(a, (*v - was) * t->w.gs));
}

// A ball joint's step about o, its frame before its motion ro: Horn's rotation of the pairs (one
// pair: the shortest arc), in that frame.
static void ik__ccd_tree_ball(ik__ccd_tree *t, int i, const ik_mat3 *ro, ik_vec3 o)
{
    ik__ccd_state *st = &t->w.states[i];
    const ik_joint *j = &t->chain.joints[i];
    ik_mat3 rt = ik_mat3_transpose(*ro), m;
    ik_vec3 e[4], d[4], el = ik_vec3_zero(), dl = ik_vec3_zero();
    ik_real wt[4], s[3][3] = { { 0 } };
    ik_quat rot;
    int k, n, c, a, b, pairs = 0, npos;
    for (k = 0; k < t->count; k++) {
        n = ik__ccd_tree_below(t, k, i) ? ik__ccd_tree_pairs(t, k, o, e, d, wt, &npos) : 0;
        for (c = 0; c < n; c++) {
            if (!(wt[c] > 0)) // (a weight of 0: no term, not a shortest arc either)
                continue;
            pairs++;
            el = ik_mat3_mul_vec3(rt, e[c]);
            dl = ik_mat3_mul_vec3(rt, d[c]);
            for (a = 0; a < 3; a++)
                for (b = 0; b < 3; b++)
                    s[a][b] += wt[c] * (&el.x)[a] * (&dl.x)[b];
        }
    }
    if (pairs == 0)
        return;
    rot = pairs == 1 ? ik_quat_from_two_vectors(el, dl) : ik__horn_rotation(s);
    rot = ik__ccd_ball_move(st, j, ik__ccd_ball_scale(&t->w, j, rot));
    m = ik__quat_to_mat3_unit(rot);
    m = ik_mat3_mul(*ro, ik_mat3_mul(m, rt));
    ik__ccd_tree_move(t, i, &m, o, o);
}

// One sweep from the frames at q: the joints from the last to the first, each moving the
// effectors below it at once.
static void ik__ccd_tree_sweep(ik__ccd_tree *t)
{
    int i;
    ik__ccd_tree_ends(t);
    for (i = t->chain.joint_count - 1; i >= 0; i--) {
        const ik_joint *j = &t->chain.joints[i];
        const ik_real *f = t->frames + 12 * i;
        ik_mat3 r;
        ik_vec3 o = ik_vec3_scale(ik_vec3_make(f[9], f[10], f[11]), t->w.gs), a;
        if (!(t->w.joints[i].flags & IK__CCD_MOVE) || j->type == IK_JOINT_FIXED)
            continue;
        memcpy(&r.m[0][0], f, 9 * sizeof *f);
        a = ik_mat3_mul_vec3(r, j->axis);
        if (j->type == IK_JOINT_REVOLUTE) {
            ik__ccd_tree_revolute(t, i, a, o);
        } else if (j->type == IK_JOINT_PRISMATIC) {
            ik__ccd_tree_slide(t, i, a, o);
        } else {
            ik_mat3 back = ik_mat3_transpose(ik__quat_to_mat3_unit(t->w.states[i].rot));
            r = ik_mat3_mul(r, back); // (the frame before the ball's motion)
            ik__ccd_tree_ball(t, i, &r, o);
        }
    }
}

// Checks a skeleton CCD solve's input, in the order of ik_skeleton_solve()'s status codes.
static ik_result ik__ccd_tree_validate(const ik_skeleton *skeleton, const ik_effector *effectors,
                                       int count, const ik_ccd_opts *o, const ik_real *q_io,
                                       const void *scratch, size_t scratch_size,
                                       const ik_solve_info *info, const ik_effector_info *out,
                                       int *dof)
{
    int rows;
    return ik__skeleton_inputs(skeleton, effectors, count, ik__ccd_opts_valid(o), NULL, q_io,
                               scratch, scratch_size, info, out, dof, &rows);
}

// The solve in base (ik__ccd_tree_reals()) from q_io: the state loaded into the limits, the goals
// blended from there, the weights.
static void ik__ccd_tree_init(ik__ccd_tree *t, const ik_skeleton *skeleton,
                              const ik_effector *effectors, int count, const ik_ccd_opts *o,
                              int dof, ik_real *base, const ik_real *q_io)
{
    ik__ccd_work *w = &t->w;
    const int n = skeleton->joint_count;
    ik_real where = 0, *at = base + IK__REALS_OF((size_t)n * sizeof(ik__ccd_joint));
    bool first = false;
    int k;
    t->o = o;
    t->chain = ik__skeleton_chain(skeleton);
    t->parents = skeleton->parents;
    t->count = count;
    w->chain = &t->chain;
    w->states = (ik__ccd_state *)(void *)at;
    w->q = at + IK__REALS_OF((size_t)n * sizeof(ik__ccd_state));
    t->frames = w->q + dof;
    t->goals = (ik__effector_goal *)(void *)(t->frames + 12 * n);
    t->ends = (ik__ccd_end *)(void *)(t->frames + 12 * n + (size_t)count * IK__GOAL_REALS);
    w->dof = dof;
    w->start = q_io;
    memcpy(w->q, q_io, (size_t)dof * sizeof(ik_real));
    for (k = 0; k < count; k++) {
        ik_real far = ik_vec3_length(effectors[k].target);
        where = far > where ? far : where;
        first = first || effectors[k].priority == 0;
    }
    ik__ccd_tree_joints(t, (ik__ccd_joint *)(void *)base,
                        where + ik_vec3_length(t->chain.joints[0].origin.pos));
    w->pose = true;
    w->wfix = t->o->position_weight >= 0 ? t->o->position_weight / w->gs / w->gs : -1;
    w->wo = t->o->orientation_weight;
    w->max_angle = t->o->max_angle;
    t->ps = t->o->position_weight >= 0 ? 1 : w->gs;
    t->wbase = t->o->position_weight >= 0 ? t->o->position_weight : 1;
    memset(&t->goals_work, 0, sizeof t->goals_work);
    t->goals_work.chain = &t->chain;
    t->goals_work.tree.parents = skeleton->parents;
    t->goals_work.tree.frames = t->frames;
    t->goals_work.ow = 1; // (CCD's w_o is dimensionless: the rotation weights alone)
    t->goals_work.scale = ik__length_scale(ik__skeleton_size(&t->chain, skeleton->parents));
    ik__ccd_load(w);
    ik__ccd_store(w, true);
    ik__jacobian(&t->chain, NULL, w->q, 6, dof, NULL, false, 1, NULL, NULL, &t->goals_work.tree);
    for (k = 0; k < count; k++) {
        ik__effector_goal *g = &t->goals[k];
        ik__goal_make(&t->goals_work, &effectors[k], 0, g);
        t->ends[k].goal = ik_vec3_scale(g->pos, w->gs);
        t->ends[k].local = ik_quat_rotate(g->offset.rot, g->axis);
        t->ends[k].weight = first && g->priority == 1 ? IK__CCD_LOW : 1;
    }
}

// Whether every effector of priority 0 is within the tolerances.
static bool ik__ccd_tree_first_met(const ik__ccd_tree *t)
{
    int k;
    for (k = 0; k < t->count; k++)
        if (t->goals[k].priority == 0 && !(t->ends[k].pos_err <= t->o->tolerance &&
                                           t->ends[k].rot_err <= t->o->rotation_tolerance))
            return false;
    return true;
}

// Whether a position goal is farther from the root of its branch than the joints between reach.
static bool ik__goals_beyond(const ik_chain *chain, const int *parents,
                             const ik__effector_goal *goals, int count, ik_real tolerance)
{
    int k, root = 0;
    for (k = 0; k < count; k++) {
        const ik__effector_goal *g = &goals[k];
        ik_real reach = ik__branch_reach(chain, parents, g->joint, g->offset.pos, &root);
        if (g->pos_rows && ik_vec3_length(ik_vec3_sub(g->pos, chain->joints[root].origin.pos)) >
                               reach * (1 + 64 * IK_EPSILON) + tolerance)
            return true;
    }
    return false;
}

static bool ik__ccd_tree_beyond(const ik__ccd_tree *t)
{
    return ik__goals_beyond(&t->chain, t->parents, t->goals, t->count, t->o->tolerance);
}

// The sweeps, until converged, stalled (3 sweeps in a row without min_improvement) or
// max_sweeps; with two priorities the last fifth is kept for priority 0 alone, where the rest
// ends with it not met, else for all (docs/skeletons.md, "CCD"). *sweeps: the sweeps made.
static ik_status ik__ccd_tree_run(ik__ccd_tree *t, int *sweeps)
{
    const ik_ccd_opts *o = t->o;
    int sweep, k, last = o->max_sweeps, idle = 0;
    ik_real err, best = 0;
    bool met, low = false, fresh = true, polish;
    for (k = 0; k < t->count; k++)
        low = low || t->ends[k].weight < 1;
    last -= low ? o->max_sweeps / 5 : 0;
    for (sweep = 0;; sweep++) {
        err = ik__ccd_tree_measure(t, &met);
        *sweeps = sweep;
        if (met)
            return IK_STATUS_CONVERGED;
        idle = fresh || err < best * (1 - o->min_improvement) ? 0 : idle + 1;
        best = fresh || err < best ? err : best;
        fresh = false;
        if (idle >= 3 || sweep == last) {
            polish = low && sweep < o->max_sweeps && !ik__ccd_tree_first_met(t);
            if (!polish && (idle >= 3 || sweep == o->max_sweeps))
                return idle >= 3 ? IK_STATUS_STALLED : IK_STATUS_MAX_ITERATIONS;
            for (k = 0; polish && k < t->count; k++) // (priority 0 alone from here)
                t->ends[k].weight = t->goals[k].priority == 0 ? 1 : 0;
            low = false; // (priority 0 met: the sweeps kept back for all)
            last = o->max_sweeps;
            fresh = fresh || polish;
        }
        ik__ccd_tree_sweep(t);
    }
}

IKDEF ik_result ik_skeleton_ccd_solve(const ik_skeleton *skeleton, const ik_effector *effectors,
                                      int effector_count, const ik_ccd_opts *opts, ik_real *q_io,
                                      void *scratch, size_t scratch_size, ik_solve_info *info,
                                      ik_effector_info *out_effectors)
{
    const ik_ccd_opts o = opts ? *opts : ik_default_ccd_opts();
    ik__ccd_tree t;
    ik_real *base;
    ik_status status;
    int dof = 0, sweeps = 0, k;
    ik_result r = ik__ccd_tree_validate(skeleton, effectors, effector_count, &o, q_io, scratch,
                                        scratch_size, info, out_effectors, &dof);
    if (r != IK_OK)
        return r;
    base = ik__scratch_reals(scratch, scratch_size,
                             ik__ccd_tree_reals(skeleton->joint_count, dof, effector_count));
    if (!base)
        return IK_ERR_SCRATCH_TOO_SMALL;
    ik__ccd_tree_init(&t, skeleton, effectors, effector_count, &o, dof, base, q_io);
    status = ik__ccd_tree_run(&t, &sweeps);
    if (status != IK_STATUS_CONVERGED && ik__ccd_tree_beyond(&t))
        status = IK_STATUS_UNREACHABLE;
    for (k = 0; k < dof; k++)
        if (!ik__bounded(t.w.q[k]))
            return IK_ERR_NUMERIC;
    memcpy(q_io, t.w.q, (size_t)dof * sizeof *q_io);
    if (info) {
        info->status = status;
        info->iterations = sweeps;
        info->position_error = info->rotation_error = 0;
    }
    for (k = 0; k < effector_count; k++) {
        const ik__ccd_end *s = &t.ends[k];
        if (info && s->pos_err > info->position_error)
            info->position_error = s->pos_err;
        if (info && s->rot_err > info->rotation_error)
            info->rotation_error = s->rot_err;
        if (out_effectors) {
            out_effectors[k].position_error = s->pos_err;
            out_effectors[k].rotation_error = s->rot_err;
            out_effectors[k].met = s->pos_err <= o.tolerance && s->rot_err <= o.rotation_tolerance;
        }
    }
    return IK_OK;
}

// ---- implementation: FABRIK (docs/fabrik.md) ---------------------------------------------------

#define IK__FABRIK_VALID 0xfab1c
#define IK__FABRIK_TOL   IK__CCD_TOL

// A joint's flags in a solve (ik__fabrik_joint)
#define IK__FABRIK_POINT 1 // its pivot starts a point of its own
#define IK__FABRIK_LAST  2 // at the last point: takes the target's orientation (pose targets)
#define IK__FABRIK_FREE  4 // a revolute joint without limits: carried as cos, sin only
#define IK__FABRIK_TURN  8 // its origin turns (a rotation other than the identity)

// A joint in one solve, in the scratch.
typedef struct ik__fabrik_joint {
    ik_mat3 origin;   // the origin's rotation (a frozen joint's motion folded in)
    ik_mat3 motion;   // the motion's rotation now
    ik_mat3 aim_rot;  // IK__FABRIK_LAST: the effector's axes in the frame after the motion
    ik_vec3 offset;   // the origin's position
    ik_vec3 axis;     // revolute, prismatic
    ik_vec3 aim;      // the next point (what it turns), in its frame after its motion
    ik_vec3 pivot;    // where its frame before the motion is now (model)
    ik_vec3 back;     // the point before its own, in its frame before the motion
    ik_vec3 root;     // and the first point
    ik_vec3 effector; // the effector, in its frame after the motion
    ik_quat rot;      // ball: the motion
    ik_real value;    // prismatic, limited revolute: q now; free revolute: q at the start
    ik_real turn[2];  // revolute: cos, sin of the angle now
    int type;         // its ik_joint_type; IK_JOINT_FIXED for a frozen joint
    int point;        // the point it aims at: the next one after its own
    int flags;        // IK__FABRIK_POINT, _LAST, _FREE, _TURN
    int qi;           // its first value in q
} ik__fabrik_joint;

// One solve: the chain, its joints' states, and the points.
typedef struct ik__fabrik_work {
    const ik_chain *chain;
    const ik_target *target;
    ik__fabrik_joint *joints; // [n]
    ik_vec3 *points;          // [count]: the points now (forward kinematics), last the effector
    ik_vec3 *placed;          // [count]: where the forward-reaching pass puts them
    ik_real *lengths;         // [count]: |points[k + 1] - points[k]|, kept by both passes
    ik_real reach;            // their sum
    ik_mat3 effector_rot;     // the effector's axes now
    ik_mat3 target_rot;       // the target's (pose targets)
    ik_mat3 tip_rot;          // the chain's tip's
    int count;                // points, the effector included (1: nothing moves)
    int dof;                  // the chain's
    bool pose;                // a target with a rotation
    bool lean;                // free ball joints, a point each, position target: points only
    bool slides;              // a prismatic joint moves: the lengths change
    ik_real pos_err, rot_err; // the state's errors
} ik__fabrik_work;

// Where a solve works: a state per joint; the points, their places and lengths; q; in reals.
static size_t ik__fabrik_reals(int joint_count, int dof)
{
    size_t n = (size_t)joint_count;
    return IK__REALS_OF(n * sizeof(ik__fabrik_joint)) + (n + 1) * 7 + (size_t)dof;
}

IKDEF ik_fabrik_opts ik_default_fabrik_opts(void)
{
    ik_fabrik_opts o;
    o.max_iterations = 100;
    o.tolerance = IK__FABRIK_TOL;
    o.rotation_tolerance = IK__FABRIK_TOL;
    o.min_improvement = IK_R(1e-9);
    o._valid = IK__FABRIK_VALID;
    return o;
}

IKDEF size_t ik_fabrik_scratch_size(const ik_chain *chain)
{
    int dof = ik_chain_dof(chain);
    if (dof < 0)
        return 0;
    return (ik__fabrik_reals(chain->joint_count, dof) + 1) * sizeof(ik_real);
}

static bool ik__fabrik_opts_valid(const ik_fabrik_opts *o)
{
    return !(o->_valid != IK__FABRIK_VALID || o->max_iterations < 1 || !ik__bounded(o->tolerance) ||
             o->tolerance < 0 || !ik__bounded(o->rotation_tolerance) || o->rotation_tolerance < 0 ||
             !ik__finite(o->min_improvement) ||
             !(o->min_improvement >= 0 && o->min_improvement < 1));
}

// The frame p -> (r, o) applied to a point: r v + o.
static inline ik_vec3 ik__fabrik_apply(const ik_mat3 *r, ik_vec3 o, ik_vec3 v)
{
    return ik_vec3_add(ik_mat3_mul_vec3(*r, v), o);
}

// r^T v.
static inline ik_vec3 ik__fabrik_back(const ik_mat3 *r, ik_vec3 v)
{
    return ik_vec3_make(r->m[0][0] * v.x + r->m[1][0] * v.y + r->m[2][0] * v.z,
                        r->m[0][1] * v.x + r->m[1][1] * v.y + r->m[2][1] * v.z,
                        r->m[0][2] * v.x + r->m[1][2] * v.y + r->m[2][2] * v.z);
}

// a b (transposed: a b^T), inlined on pointers: the passes' products.
static inline IK__ALWAYS_INLINE ik_mat3 ik__fabrik_mul(const ik_mat3 *a, const ik_mat3 *b,
                                                       bool transposed)
{
    ik_mat3 m;
    int r, c;
    IK__UNROLL
    for (r = 0; r < 3; r++) {
        IK__UNROLL
        for (c = 0; c < 3; c++)
            m.m[r][c] =
                transposed
                    ? a->m[r][0] * b->m[c][0] + a->m[r][1] * b->m[c][1] + a->m[r][2] * b->m[c][2]
                    : a->m[r][0] * b->m[0][c] + a->m[r][1] * b->m[1][c] + a->m[r][2] * b->m[2][c];
    }
    return m;
}

// r times the joint's origin rotation (r itself where the origin does not turn).
static inline ik_mat3 ik__fabrik_turned(const ik__fabrik_joint *f, const ik_mat3 *r)
{
    return (f->flags & IK__FABRIK_TURN) ? ik__fabrik_mul(r, &f->origin, false) : *r;
}

// The joint's origin applied to v (v in the joint's frame, the result in its parent's).
static inline ik_vec3 ik__fabrik_from(const ik__fabrik_joint *f, ik_vec3 v)
{
    return (f->flags & IK__FABRIK_TURN) ? ik__fabrik_apply(&f->origin, f->offset, v)
                                        : ik_vec3_add(v, f->offset);
}

// A joint's motion's rotation from its state.
static void ik__fabrik_motion(ik__fabrik_joint *f)
{
    if (f->type == IK_JOINT_REVOLUTE)
        f->motion = ik__mat3_axis_angle(f->axis, f->turn[0], f->turn[1]);
    else if (f->type == IK_JOINT_BALL)
        f->motion = ik__quat_to_mat3_unit(f->rot);
    else
        f->motion = ik_mat3_identity();
}

// A joint's state from q (clamped into its limits); a frozen joint's motion joins its origin.
static void ik__fabrik_load(ik__fabrik_joint *f, const ik_joint *j, const ik_real *q)
{
    ik_real v = j->type == IK_JOINT_REVOLUTE || j->type == IK_JOINT_PRISMATIC
                    ? ik__clamp(q[0], j->lo, j->hi)
                    : 0;
    f->type = j->type;
    f->axis = j->axis;
    f->origin = ik__quat_to_mat3_unit(ik__quat_unitize(j->origin.rot));
    f->offset = j->origin.pos;
    f->value = v;
    f->turn[0] = j->type == IK_JOINT_REVOLUTE ? IK_COS(v) : 1;
    f->turn[1] = j->type == IK_JOINT_REVOLUTE ? IK_SIN(v) : 0;
    f->rot = ik_quat_identity();
    if (j->type == IK_JOINT_BALL)
        f->rot = ik_ball_limit_project(j->limit, ik__quat_unit_or_normalize(ik_quat_from_expmap(
                                                     ik_vec3_make(q[0], q[1], q[2]))));
    f->flags = j->type == IK_JOINT_REVOLUTE && !ik__finite(j->lo) && !ik__finite(j->hi)
                   ? IK__FABRIK_FREE
                   : 0;
    f->flags |= ik__quat_turns(j->origin.rot) ? IK__FABRIK_TURN : 0;
    ik__fabrik_motion(f);
    if (j->weight > 0 || j->type == IK_JOINT_FIXED)
        return;
    if (j->type == IK_JOINT_PRISMATIC)
        f->offset = ik__fabrik_apply(&f->origin, f->offset, ik_vec3_scale(f->axis, v));
    f->origin = ik_mat3_mul(f->origin, f->motion);
    f->flags |= IK__FABRIK_TURN;
    f->motion = ik_mat3_identity();
    f->type = IK_JOINT_FIXED;
}

// Which joints start a point (a pivot away from the last moving joint's, or after a prismatic
// one), which point each aims at, and which take the target's orientation; the point count.
static int ik__fabrik_points(ik__fabrik_joint *joints, int n, ik_real scale)
{
    ik_mat3 acc_rot = ik_mat3_identity();
    ik_vec3 acc_pos = ik_vec3_zero();
    int i, last = -1, count = 0;
    for (i = 0; i < n; i++) {
        ik__fabrik_joint *f = &joints[i];
        ik_vec3 at = ik__fabrik_apply(&acc_rot, acc_pos, f->offset);
        acc_pos = at;
        acc_rot = ik__fabrik_turned(f, &acc_rot);
        if (f->type == IK_JOINT_FIXED)
            continue;
        if (last < 0 || joints[last].type == IK_JOINT_PRISMATIC ||
            ik_vec3_length(at) > 64 * IK_EPSILON * scale) {
            f->flags |= IK__FABRIK_POINT;
            count++;
        }
        f->point = count;
        last = i;
        acc_rot = ik_mat3_identity();
        acc_pos = ik_vec3_zero();
    }
    for (i = n - 1; i >= 0 && (joints[i].type == IK_JOINT_FIXED || joints[i].point == count); i--)
        joints[i].flags |= IK__FABRIK_LAST; // (and the fixed joints after them)
    return count + 1;
}

// Joint f's aim and effector axes from the next joint's (*aim, *aim_rot), and the joint before's.
static inline void ik__fabrik_aim(const ik__fabrik_work *w, ik__fabrik_joint *f, ik_vec3 *aim,
                                  ik_mat3 *aim_rot, ik_vec3 *eff)
{
    ik_vec3 moved = ik_mat3_mul_vec3(f->motion, *aim);
    ik_vec3 emoved = ik_mat3_mul_vec3(f->motion, *eff);
    f->effector = *eff;
    if (f->type == IK_JOINT_PRISMATIC)
        emoved = ik_vec3_add_scaled(emoved, f->axis, f->value);
    *eff = ik__fabrik_from(f, emoved);
    f->aim = *aim;
    if (f->flags & IK__FABRIK_LAST)
        f->aim_rot = *aim_rot;
    if (f->type == IK_JOINT_PRISMATIC)
        moved = ik_vec3_add_scaled(moved, f->axis, f->value);
    *aim = (f->flags & IK__FABRIK_POINT) ? f->offset : ik__fabrik_from(f, moved);
    if (w->pose && (f->flags & IK__FABRIK_LAST))
        *aim_rot = ik_mat3_mul(f->origin, ik_mat3_mul(f->motion, *aim_rot));
}

// Every joint's aim (the next point, in its frame after its motion) from the joints' states, tip
// to root; the last point's joints also get the effector's axes there.
static void ik__fabrik_aims(ik__fabrik_work *w)
{
    ik_vec3 aim = w->chain->tip.pos;
    ik_mat3 aim_rot = w->tip_rot;
    ik_vec3 eff = aim;
    int i;
    for (i = w->chain->joint_count - 1; i >= 0; i--)
        ik__fabrik_aim(w, &w->joints[i], &aim, &aim_rot, &eff);
}

// from + length along d (d any length; a zero d: from; one too short to have a direction: along
// d by at most length). d length / |d| as (d length / |d|^2) |d|: the square root and the division
// side by side, not one after the other; |d|^2 at least IK__TINY2 (1 + length), so that
// length / |d|^2 stays below 1 / IK__TINY2.
static inline ik_vec3 ik__fabrik_along(ik_vec3 from, ik_vec3 d, ik_real length)
{
    ik_real len2 = ik_vec3_length2(d), least = IK__TINY2 * (1 + length);
    ik_vec3 u = ik_vec3_scale(d, length / (len2 > least ? len2 : least));
    return ik_vec3_add_scaled(from, u, IK_SQRT(len2));
}

// The forward-reaching pass on the points alone: the effector at the target, each point toward
// its old place at its distance from the next; beyond reach, every point's goal is the target.
static void ik__fabrik_reach(ik__fabrik_work *w)
{
    const int m = w->count - 1;
    ik_vec3 t = w->target->pos, at = t, *p = w->points, *s = w->placed;
    int k;
    s[m] = t;
    if (ik_vec3_length(ik_vec3_sub(t, p[0])) >= w->reach) {
        for (k = 1; k < m; k++)
            s[k] = t;
        return;
    }
    for (k = m - 1; k > 0; k--) { // (at: s[k + 1] in a register, not read back)
        ik_vec3 d = ik_vec3_sub(p[k], at);
        if (ik_vec3_length2(d) <= IK__TINY2)
            d = ik_vec3_sub(p[k], p[k + 1]);
        s[k] = at = ik__fabrik_along(at, d, w->lengths[k]);
    }
}

// The distances between the points, and their sum.
static void ik__fabrik_lengths(ik__fabrik_work *w)
{
    int k;
    w->reach = 0;
    for (k = 0; k + 1 < w->count; k++) {
        w->lengths[k] = ik_vec3_length(ik_vec3_sub(w->points[k + 1], w->points[k]));
        w->reach += w->lengths[k];
    }
}

// A revolute joint at the angle whose cos, sin are proportional to (c, s): a free one there, a
// limited one along the shorter turn from where it is, clamped. Nothing where (c, s), sums of
// terms of unit size, is too short to have a direction.
static void ik__fabrik_turn(ik__fabrik_joint *f, const ik_joint *j, ik_real c, ik_real s)
{
    ik_real len2 = c * c + s * s, want;
    if (!(len2 > 256 * IK_EPSILON * IK_EPSILON))
        return;
    len2 = 1 / IK_SQRT(len2);
    c *= len2;
    s *= len2;
    if (f->flags & IK__FABRIK_FREE) {
        f->turn[0] = c;
        f->turn[1] = s;
        return;
    }
    want = f->value + IK_ATAN2(s * f->turn[0] - c * f->turn[1], c * f->turn[0] + s * f->turn[1]);
    f->value = ik__clamp(want, j->lo, j->hi);
    f->turn[0] = f->value == want ? c : IK_COS(f->value); // (within the range: (c, s) itself)
    f->turn[1] = f->value == want ? s : IK_SIN(f->value);
}

// The shortest arc from a's direction to b's, ik_quat_from_two_vectors() on fewer square roots
// and divisions where the angle is acute and the lengths moderate: (a x b, |a| |b| + a . b)
// normalized (the half-angle formula, a and b unnormalized).
static inline ik_quat ik__fabrik_arc(ik_vec3 a, ik_vec3 b)
{
    ik_real a2 = ik_vec3_length2(a), b2 = ik_vec3_length2(b), d = ik_vec3_dot(a, b);
    ik_vec3 c = ik_vec3_cross(a, b);
    if (!(d > 0 && a2 > IK_R(1e-12) && a2 < IK_R(1e12) && b2 > IK_R(1e-12) && b2 < IK_R(1e12)))
        return ik_quat_from_two_vectors(a, b);
    return ik__quat_unitize(ik_quat_make(c.x, c.y, c.z, IK_SQRT(a2 * b2) + d));
}

// Adds to (*c, *s) the cosine and sine terms of the turn about k that carries x's direction
// toward y's: the projections of the unit x and y on the hinge plane (nothing for a zero one).
static inline void ik__fabrik_pair(ik_vec3 k, ik_vec3 x, ik_vec3 y, ik_real *c, ik_real *s)
{
    ik_real x2 = ik_vec3_length2(x), y2 = ik_vec3_length2(y), unit;
    if (!(x2 > IK__TINY2 && y2 > IK__TINY2))
        return;
    unit = 1 / (IK_SQRT(x2) * IK_SQRT(y2)); // (the projections are linear: one division)
    x = ik_vec3_add_scaled(x, k, -ik_vec3_dot(k, x));
    y = ik_vec3_add_scaled(y, k, -ik_vec3_dot(k, y));
    *c += ik_vec3_dot(x, y) * unit;
    *s += ik_vec3_dot(k, ik_vec3_cross(x, y)) * unit;
}

// A revolute joint turned to carry its aim toward g and its effector toward t (its frame before
// the motion): the angle that maximizes the sum of the cosines between their projections on
// the hinge plane.
static void ik__fabrik_hinge(ik__fabrik_joint *f, const ik_joint *j, ik_vec3 g, ik_vec3 t)
{
    ik_real c = 0, s = 0;
    ik__fabrik_pair(f->axis, f->aim, g, &c, &s);
    ik__fabrik_pair(f->axis, f->effector, t, &c, &s);
    ik__fabrik_turn(f, j, c, s);
}

// A revolute joint turned to bring the effector's axes closest to w (its frame before the
// motion): the angle that maximizes tr(R(angle) A W^T), A the effector's axes after the motion.
static void ik__fabrik_hinge_rot(ik__fabrik_joint *f, const ik_joint *j, const ik_mat3 *wr)
{
    ik_mat3 q = ik_mat3_mul(f->aim_rot, ik_mat3_transpose(*wr));
    ik_vec3 k = f->axis;
    ik_real c = q.m[0][0] + q.m[1][1] + q.m[2][2] - ik_vec3_dot(k, ik_mat3_mul_vec3(q, k));
    ik_real s = k.x * (q.m[1][2] - q.m[2][1]) + k.y * (q.m[2][0] - q.m[0][2]) +
                k.z * (q.m[0][1] - q.m[1][0]);
    ik__fabrik_turn(f, j, c, s);
}

// A joint's step in its frame before the motion (gr, gp): toward the next point's place, or, at
// the last point of a pose target, to the target's orientation; within its limits.
static void ik__fabrik_step(ik__fabrik_work *w, ik__fabrik_joint *f, const ik_joint *j,
                            const ik_mat3 *gr, ik_vec3 gp)
{
    ik_vec3 g = ik__fabrik_back(gr, ik_vec3_sub(w->placed[f->point], gp));
    ik_mat3 wr;
    bool orient = w->pose && (f->flags & IK__FABRIK_LAST);
    if (orient)
        wr = ik_mat3_mul(ik_mat3_transpose(*gr), w->target_rot);
    if (f->type == IK_JOINT_PRISMATIC) {
        ik_vec3 c = ik_vec3_add_scaled(f->aim, f->axis, f->value);
        f->value = ik__clamp(f->value + ik_vec3_dot(f->axis, ik_vec3_sub(g, c)), j->lo, j->hi);
        return;
    }
    if (f->type == IK_JOINT_REVOLUTE) {
        if (orient)
            ik__fabrik_hinge_rot(f, j, &wr);
        else
            ik__fabrik_hinge(f, j, g, ik__fabrik_back(gr, ik_vec3_sub(w->target->pos, gp)));
    } else if (orient) {
        ik_mat3 r = ik_mat3_mul(wr, ik_mat3_transpose(f->aim_rot));
        f->rot = ik_ball_limit_project(j->limit, ik__quat_unitize(ik__quat_from_mat3(&r)));
    } else {
        ik_quat d = ik__fabrik_arc(ik_mat3_mul_vec3(f->motion, f->aim), g);
        f->rot = ik_ball_limit_project(j->limit, ik__quat_unitize(ik_quat_mul(d, f->rot)));
    }
    ik__fabrik_motion(f);
}

// A joint's step in the forward-reaching pass, in its frame after the motion (hr, hp): the motion
// that carries the point before its own (back, in the frame before the motion) toward where
// that point is now; within its limits.
static void ik__fabrik_step_back(ik__fabrik_work *w, ik__fabrik_joint *f, const ik_joint *j,
                                 const ik_mat3 *hr, ik_vec3 hp)
{
    ik_vec3 g = ik__fabrik_back(hr, ik_vec3_sub(w->points[f->point - 2], hp)), b = f->back;
    if (f->type == IK_JOINT_PRISMATIC) {
        f->value = ik__clamp(ik_vec3_dot(f->axis, ik_vec3_sub(b, g)), j->lo, j->hi);
        return;
    }
    if (f->type == IK_JOINT_REVOLUTE) {
        ik_real c = 0, s = 0;
        ik__fabrik_pair(f->axis, g, b, &c, &s);
        ik__fabrik_pair(f->axis, ik__fabrik_back(hr, ik_vec3_sub(w->points[0], hp)), f->root, &c,
                        &s);
        ik__fabrik_turn(f, j, c, s);
    } else {
        ik_quat d = ik__fabrik_arc(ik_mat3_mul_vec3(f->motion, g), b);
        f->rot = ik_ball_limit_project(j->limit, ik__quat_unitize(ik_quat_mul(d, f->rot)));
    }
    ik__fabrik_motion(f);
}

// The forward-reaching pass as forward kinematics from the tip: the effector at the target (turned
// about it so that the last point goes toward where it is; a pose target: at its orientation),
// then each joint's frame from the one after it, its step toward where the point before is, and
// the places of the points; the aims on the way.
static void ik__fabrik_reverse(ik__fabrik_work *w)
{
    const int m = w->count - 1;
    ik_vec3 t = w->target->pos, aim = w->chain->tip.pos, hp;
    ik_mat3 aim_rot = w->tip_rot, hr = w->target_rot;
    ik_vec3 eff = aim;
    int i;
    if (!w->pose) {
        ik_quat d = ik__fabrik_arc(ik_vec3_sub(w->points[m - 1], w->points[m]),
                                   ik_vec3_sub(w->points[m - 1], t));
        hr = ik_mat3_mul(ik__quat_to_mat3_unit(d), w->effector_rot);
    }
    hr = ik_mat3_mul(hr, ik_mat3_transpose(w->tip_rot));
    hp = ik_vec3_sub(t, ik_mat3_mul_vec3(hr, w->chain->tip.pos));
    w->placed[m] = t;
    for (i = w->chain->joint_count - 1; i >= 0; i--) {
        ik__fabrik_joint *f = &w->joints[i];
        ik_mat3 gr;
        ik_vec3 gp = hp;
        if (f->type != IK_JOINT_FIXED && f->point > 1)
            ik__fabrik_step_back(w, f, &w->chain->joints[i], &hr, hp);
        gr = ik__fabrik_mul(&hr, &f->motion, true);
        if (f->type == IK_JOINT_PRISMATIC)
            gp = ik_vec3_sub(hp, ik_mat3_mul_vec3(gr, ik_vec3_scale(f->axis, f->value)));
        if (f->flags & IK__FABRIK_POINT)
            w->placed[f->point - 1] = gp;
        hr = (f->flags & IK__FABRIK_TURN) ? ik__fabrik_mul(&gr, &f->origin, true) : gr;
        hp = ik_vec3_sub(gp, ik_mat3_mul_vec3(hr, f->offset));
        ik__fabrik_aim(w, f, &aim, &aim_rot, &eff);
    }
}

// The backward-reaching pass, root to tip, as forward kinematics: each joint's frame before its
// motion, its step (move), its motion; the points and the effector where the joints put them.
static void ik__fabrik_write(ik__fabrik_work *w, bool move)
{
    const ik_chain *chain = w->chain;
    ik_mat3 fr = ik_mat3_identity(); // the frame after the last joint's motion
    ik_vec3 fp = ik_vec3_zero();
    int i;
    for (i = 0; i < chain->joint_count; i++) {
        ik__fabrik_joint *f = &w->joints[i];
        ik_mat3 gr = ik__fabrik_turned(f, &fr);
        ik_vec3 gp = ik__fabrik_apply(&fr, fp, f->offset);
        f->pivot = gp;
        if (f->type == IK_JOINT_FIXED && chain->joints[i].type == IK_JOINT_PRISMATIC)
            f->pivot = ik__fabrik_apply(&fr, fp, chain->joints[i].origin.pos); // (frozen)
        if (f->flags & IK__FABRIK_POINT)
            w->points[f->point - 1] = gp;
        if (f->point > 1) {
            f->back = ik__fabrik_back(&gr, ik_vec3_sub(w->points[f->point - 2], gp));
            f->root = ik__fabrik_back(&gr, ik_vec3_sub(w->points[0], gp));
        }
        if (move && f->type != IK_JOINT_FIXED)
            ik__fabrik_step(w, f, &chain->joints[i], &gr, gp);
        fp = f->type == IK_JOINT_PRISMATIC
                 ? ik__fabrik_apply(&gr, gp, ik_vec3_scale(f->axis, f->value))
                 : gp;
        fr = ik__fabrik_mul(&gr, &f->motion, false);
    }
    w->points[w->count - 1] = ik__fabrik_apply(&fr, fp, chain->tip.pos);
    w->effector_rot = ik_mat3_mul(fr, w->tip_rot);
}

// The lean iteration: both passes on the points alone (their distances constant).
static void ik__fabrik_lean(ik__fabrik_work *w)
{
    ik_vec3 *p = w->points, at = p[0];
    int k;
    ik__fabrik_reach(w);
    for (k = 0; k + 1 < w->count; k++)
        p[k + 1] = at = ik__fabrik_along(at, ik_vec3_sub(w->placed[k + 1], at), w->lengths[k]);
}

// One iteration: the aims, the forward-reaching pass, the backward one with the joints' steps.
static void ik__fabrik_iterate(ik__fabrik_work *w)
{
    if (w->count == 1) // nothing moves
        return;
    if (w->lean) {
        ik__fabrik_lean(w);
        return;
    }
    if (w->slides)
        ik__fabrik_lengths(w);
    if (!w->pose && ik_vec3_length(ik_vec3_sub(w->target->pos, w->points[0])) >= w->reach) {
        int k;
        ik__fabrik_aims(w); // beyond reach: every point's goal is the target
        for (k = 1; k < w->count; k++)
            w->placed[k] = w->target->pos;
    } else {
        ik__fabrik_reverse(w);
    }
    ik__fabrik_write(w, true);
}

// The joints' states from q, the points, and whether the lean iteration applies.
static void ik__fabrik_setup(ik__fabrik_work *w, const ik_chain *chain, const ik_target *target,
                             const ik_real *q, ik_real *mem)
{
    const int n = chain->joint_count;
    int i, qi = 0;
    w->chain = chain;
    w->target = target;
    w->pose = target->use_rotation;
    w->joints = (ik__fabrik_joint *)(void *)mem;
    w->points = (ik_vec3 *)(void *)(mem + IK__REALS_OF((size_t)n * sizeof(ik__fabrik_joint)));
    w->placed = w->points + n + 1;
    w->lengths = (ik_real *)(void *)(w->placed + n + 1);
    w->target_rot = ik__quat_to_mat3_unit(target->rot);
    w->tip_rot = ik__quat_to_mat3_unit(ik__quat_unitize(chain->tip.rot));
    w->slides = false;
    w->lean = IK__FAST && !w->pose; // (the points-only iteration: a fast path)
    for (i = 0; i < n; i++) {
        ik__fabrik_joint *f = &w->joints[i];
        ik__fabrik_load(f, &chain->joints[i], q + qi);
        f->qi = qi;
        f->point = 0;
        qi += ik_joint_type_dof(chain->joints[i].type);
    }
    w->dof = qi;
    w->count = ik__fabrik_points(w->joints, n, ik__length_scale(ik__chain_reach(chain)));
    for (i = 0; i < n; i++) {
        const ik__fabrik_joint *f = &w->joints[i];
        w->slides = w->slides || f->type == IK_JOINT_PRISMATIC;
        w->lean = w->lean && (f->type == IK_JOINT_FIXED ||
                              (f->type == IK_JOINT_BALL && !chain->joints[i].limit &&
                               (f->flags & IK__FABRIK_POINT)));
    }
    ik__fabrik_aims(w);
    ik__fabrik_write(w, false);
    ik__fabrik_lengths(w);
}

// The state's errors; the stopping measure: the distance plus the angle times scale.
static ik_real ik__fabrik_error(ik__fabrik_work *w, ik_real scale)
{
    ik_xform e;
    e.pos = w->points[w->count - 1];
    e.rot = w->pose ? ik__quat_from_mat3(&w->effector_rot) : ik_quat_identity();
    ik__pose_error(w->target, e, 1, 1, 0, &w->pos_err, &w->rot_err);
    return w->pos_err + w->rot_err * scale;
}

static bool ik__fabrik_within(const ik__fabrik_work *w, const ik_fabrik_opts *o)
{
    return w->pos_err <= o->tolerance && (!w->pose || w->rot_err <= o->rotation_tolerance);
}

// The joints' values into q (each joint's value near its start), false if one is too large.
static bool ik__fabrik_store(const ik__fabrik_work *w, ik_real *q)
{
    int i;
    for (i = 0; i < w->chain->joint_count; i++) {
        const ik__fabrik_joint *f = &w->joints[i];
        ik_real *v = q + f->qi, c, s;
        switch (w->chain->joints[i].type) {
        case IK_JOINT_REVOLUTE:
            if (!(f->flags & IK__FABRIK_FREE) || f->type == IK_JOINT_FIXED) {
                v[0] = f->value;
                break;
            }
            c = IK_COS(f->value);
            s = IK_SIN(f->value);
            v[0] = f->value +
                   IK_ATAN2(f->turn[1] * c - f->turn[0] * s, f->turn[0] * c + f->turn[1] * s);
            break;
        case IK_JOINT_PRISMATIC: v[0] = f->value; break;
        case IK_JOINT_BALL: {
            ik_vec3 e = ik__quat_log(f->rot);
            v[0] = e.x;
            v[1] = e.y;
            v[2] = e.z;
        } break;
        default: break;
        }
    }
    for (i = 0; i < w->dof; i++)
        if (!ik__bounded(q[i]))
            return false;
    return true;
}

// The iterations until converged, stalled or max_iterations; the status.
static ik_status ik__fabrik_loop(ik__fabrik_work *w, const ik_fabrik_opts *o, ik_real scale,
                                 int *iterations)
{
    ik_real best = ik__fabrik_error(w, scale), err;
    int it, idle = 0;
    for (it = 0;; it++) {
        if (ik__fabrik_within(w, o) || idle >= 3 || it == o->max_iterations)
            break;
        ik__fabrik_iterate(w);
        err = ik__fabrik_error(w, scale);
        idle = err < best * (1 - o->min_improvement) ? 0 : idle + 1;
        best = err < best ? err : best;
    }
    *iterations = it;
    if (ik__fabrik_within(w, o))
        return IK_STATUS_CONVERGED;
    return idle >= 3 ? IK_STATUS_STALLED : IK_STATUS_MAX_ITERATIONS;
}

// The iterations (ik__fabrik_loop()), then, after the lean ones, the joints' values for the
// points found and the points they give; the status.
static ik_status ik__fabrik_converge(ik__fabrik_work *w, const ik_fabrik_opts *o, ik_real scale,
                                     int *iterations)
{
    ik_status status = ik__fabrik_loop(w, o, scale, iterations);
    if (w->lean) {
        memcpy(w->placed, w->points, (size_t)w->count * sizeof(ik_vec3));
        ik__fabrik_write(w, true);
        ik__fabrik_error(w, scale);
        if (ik__fabrik_within(w, o))
            status = IK_STATUS_CONVERGED;
        else if (status == IK_STATUS_CONVERGED)
            status = IK_STATUS_STALLED;
    }
    return status;
}

// A solve (inputs checked) in mem; q, out_points and info written only on success.
static ik_result ik__fabrik_run(ik__fabrik_work *w, const ik_fabrik_opts *o, ik_real *q_io,
                                ik_solve_info *info, ik_vec3 *out_points)
{
    const ik_chain *chain = w->chain;
    ik_real reach = ik__chain_reach(chain), scale = ik__length_scale(reach);
    ik_real *q = w->lengths + chain->joint_count + 1; // (q's new values, until all are known)
    int it, i;
    ik_status status = ik__fabrik_converge(w, o, scale, &it);
    if (status != IK_STATUS_CONVERGED &&
        ik__beyond_reach(chain, w->target->pos, reach, o->tolerance))
        status = IK_STATUS_UNREACHABLE;
    memcpy(q, q_io, (size_t)w->dof * sizeof(ik_real));
    if (!ik__fabrik_store(w, q))
        return IK_ERR_NUMERIC;
    memcpy(q_io, q, (size_t)w->dof * sizeof(ik_real));
    for (i = 0; out_points && i < chain->joint_count; i++)
        out_points[i] = w->joints[i].pivot;
    if (out_points)
        out_points[chain->joint_count] = w->points[w->count - 1];
    if (info) {
        info->status = status;
        info->iterations = it;
        info->position_error = w->pos_err;
        info->rotation_error = w->rot_err;
    }
    return IK_OK;
}

IKDEF ik_result ik_fabrik_solve(const ik_chain *chain, const ik_target *target_in,
                                const ik_fabrik_opts *opts, ik_real *q_io, void *scratch,
                                size_t scratch_size, ik_solve_info *info, ik_vec3 *out_points)
{
    ik_fabrik_opts o = opts ? *opts : ik_default_fabrik_opts();
    ik_target target;
    ik__fabrik_work w;
    ik_real *mem;
    size_t points;
    int dof;
    ik_result r = ik__chain_state_validate(chain, q_io, &dof);
    if (r != IK_OK)
        return r;
    r = ik__solver_validate(chain, dof, q_io, target_in, -1, ik__fabrik_opts_valid(&o), NULL,
                            scratch, scratch_size, 0, info, &target);
    if (r != IK_OK)
        return r;
    points = (size_t)(chain->joint_count + 1) * sizeof(ik_vec3);
    if (out_points && (ik__overlap(out_points, points, scratch, scratch_size) ||
                       ik__overlap(out_points, points, q_io, (size_t)dof * sizeof(ik_real)) ||
                       ik__overlap(out_points, points, info, info ? sizeof *info : 0)))
        return IK_ERR_BAD_ARG;
    mem = ik__scratch_reals(scratch, scratch_size, ik__fabrik_reals(chain->joint_count, dof));
    if (!mem)
        return IK_ERR_SCRATCH_TOO_SMALL;
    ik__fabrik_setup(&w, chain, &target, q_io, mem);
    return ik__fabrik_run(&w, &o, q_io, info, out_points);
}

// ---- implementation: FABRIK on skeletons (docs/fabrik.md, "Skeletons") ------------------------

// A branch of a skeleton's FABRIK solve: the joints from a root or sub-base to the next sub-base
// or effector's joint (its end), solved as a chain in its base frame (its parent's end frame).
typedef struct ik__fabrik_branch {
    ik__fabrik_work w; // its chain's solve, in its base frame
    ik_chain chain;    // its joints (copies, in path order); its tip: its end's first effector, or
                       // the mean of its children's first origins
    ik_target target;  // its end's goal in its base frame
    ik_mat3 base_rot;  // its base frame (model) as its points were last placed
    ik_mat3 end_rot;   // its end joint's frame after the motion (model)
    ik_mat3 pose_rot;  // its tip effector's goal rotation (POSE)
    ik_mat3 goal_rot;  // its tip's goal rotation (a pose target)
    ik_vec3 base_pos, end_pos;
    ik_vec3 goal;    // where its tip should go (model): the centroid of its end's offers
    ik_vec3 offer;   // where its forward-reaching pass puts its first point (model)
    ik_real weight;  // its offers' weights summed: its weight in its parent's centroid
    ik_real *q;      // its joints' values, in path order
    const int *path; // its joints' indices in the skeleton
    int parent;      // the branch it hangs from; -1: the root frame
    int tip;         // the effector at its tip; -1: none (a sub-base only)
    bool posed;      // the tip is a POSE effector (its rotation sought)
} ik__fabrik_branch;

// A skeleton's FABRIK solve.
typedef struct ik__fabrik_tree {
    ik__fabrik_branch *branches; // [branch_count], parents before children
    ik__effector_goal *goals;    // [count] the effectors' goals, blended from the start
    ik_real *weights;            // [count] their weights in the centroids
    ik_real *pos_err, *rot_err;  // [count] their errors now
    ik_real *q;                  // [dof] the state (the joints on no branch: clamped)
    int *branch_of;              // [n] the branch a joint ends (-1: none)
    int *state_at;               // [n] each joint's first value in q
    int branch_count, count, dof;
    ik_real scale; // the skeleton's size: the angles' weight in the stopping error
    const ik_fabrik_opts *o;
} ik__fabrik_tree;

// Reals to skip so that the scratch's structures (they hold pointers) are aligned.
#define IK__FABRIK_SKIP (sizeof(void *) > sizeof(ik_real) ? sizeof(void *) / sizeof(ik_real) : 1)

// A skeleton FABRIK solve's scratch in reals: branches and their joints' copies, the joints'
// indices, each branch's chain solve (at most one per joint), q, frames, goals.
static size_t ik__fabrik_tree_reals(int joint_count, int dof, int count)
{
    const size_t n = (size_t)joint_count;
    return IK__FABRIK_SKIP + IK__REALS_OF(n * (sizeof(ik__fabrik_branch) + sizeof(ik_joint))) +
           IK__REALS_OF(5 * n * sizeof(int)) + ik__fabrik_reals(joint_count, dof) + 8 * n +
           (size_t)dof + 12 * n + (size_t)count * (IK__GOAL_REALS + 3);
}

IKDEF size_t ik_skeleton_fabrik_scratch_size(const ik_skeleton *skeleton,
                                             const ik_effector *effectors, int effector_count)
{
    int dof = ik_skeleton_dof(skeleton);
    if (dof < 0 || !effectors || effector_count < 1 || effector_count > IK_MAX_EFFECTORS)
        return 0;
    return (ik__fabrik_tree_reals(skeleton->joint_count, dof, effector_count) + 1) *
           sizeof(ik_real);
}

// Joint i's parent (-1: the root frame).
static int ik__fabrik_parent(const ik_skeleton *s, int i)
{
    return s->parents ? s->parents[i] : i - 1;
}

// The branches: the joints on the way to an effector, cut after sub-bases (several such children)
// and effectors' joints; parents before children. next, kids, path: [n] ints to work in.
static void ik__fabrik_tree_split(ik__fabrik_tree *t, const ik_skeleton *s, const ik_effector *e,
                                  int *next, int *kids, int *path)
{
    int i, j, k, p;
    for (i = 0; i < s->joint_count; i++) {
        next[i] = -1;
        kids[i] = 0;
        t->branch_of[i] = -1;
    }
    for (k = 0; k < t->count; k++)
        t->branch_of[e[k].joint] = -2;        // (an effector's joint: an end)
    for (i = s->joint_count - 1; i >= 0; i--) // (children on the way to an effector)
        if ((p = ik__fabrik_parent(s, i)) >= 0 && (kids[i] > 0 || t->branch_of[i] == -2)) {
            kids[p]++;
            next[p] = i;
        }
    t->branch_count = 0;
    for (i = 0; i < s->joint_count; i++) {
        ik__fabrik_branch *br = &t->branches[t->branch_count];
        p = ik__fabrik_parent(s, i);
        if (!(kids[i] > 0 || t->branch_of[i] == -2) || (p >= 0 && t->branch_of[p] < 0))
            continue; // (not on the way to an effector, or not after an end)
        br->path = path;
        br->parent = p < 0 ? -1 : t->branch_of[p];
        br->chain.joint_count = 1;
        *path++ = j = i;
        while (t->branch_of[j] != -2 && kids[j] == 1) { // (down its one child on the way)
            *path++ = j = next[j];
            br->chain.joint_count++;
        }
        t->branch_of[j] = t->branch_count++;
        br->tip = -1;
        for (k = t->count - 1; k >= 0; k--)
            br->tip = e[k].joint == j ? k : br->tip;
    }
}

// A branch's base frame: its parent's end frame, or the root frame.
static void ik__fabrik_branch_base(const ik__fabrik_tree *t, const ik__fabrik_branch *br,
                                   ik_mat3 *rot, ik_vec3 *pos)
{
    *rot = br->parent < 0 ? ik_mat3_identity() : t->branches[br->parent].end_rot;
    *pos = br->parent < 0 ? ik_vec3_zero() : t->branches[br->parent].end_pos;
}

// A branch's end frame (model) from its chain's effector frame.
static void ik__fabrik_branch_end(ik__fabrik_branch *br)
{
    const ik__fabrik_work *w = &br->w;
    ik_mat3 fr = ik__fabrik_mul(&w->effector_rot, &w->tip_rot, true);
    ik_vec3 fp = ik_vec3_sub(w->points[w->count - 1], ik_mat3_mul_vec3(fr, br->chain.tip.pos));
    br->end_rot = ik__fabrik_mul(&br->base_rot, &fr, false);
    br->end_pos = ik__fabrik_apply(&br->base_rot, br->base_pos, fp);
}

// A branch's joints' values into the state (false if one is too large).
static bool ik__fabrik_branch_store(ik__fabrik_tree *t, const ik__fabrik_branch *br)
{
    int i, c, at = 0;
    if (!ik__fabrik_store(&br->w, br->q))
        return false;
    for (i = 0; i < br->chain.joint_count; i++)
        for (c = 0; c < ik_joint_type_dof(br->chain.joints[i].type); c++)
            t->q[t->state_at[br->path[i]] + c] = br->q[at++];
    return true;
}

// A sub-base's tip: the mean of its children's first joints' origins (what turns it).
static ik_xform ik__fabrik_branch_tip(const ik__fabrik_tree *t, const ik_skeleton *s, int b)
{
    ik_xform tip = ik_xform_identity();
    int c, kids = 0;
    for (c = b + 1; c < t->branch_count; c++)
        if (t->branches[c].parent == b) {
            tip.pos = ik_vec3_add(tip.pos, s->joints[t->branches[c].path[0]].origin.pos);
            kids++;
        }
    tip.pos = ik_vec3_scale(tip.pos, 1 / (ik_real)(kids > 0 ? kids : 1));
    return tip;
}

// Whether the solve is one branch with one effector (a chain): ik_fabrik_solve()'s loop.
static bool ik__fabrik_tree_single(const ik__fabrik_tree *t, const ik_effector *e)
{
    return t->branch_count == 1 && t->count == 1 && e[0].position_weight > 0;
}

// How many offers branch b's end takes: its effectors and its children.
static int ik__fabrik_offers(const ik__fabrik_tree *t, int b, const ik_effector *e)
{
    const int end = t->branches[b].path[t->branches[b].chain.joint_count - 1];
    int k, offers = 0;
    for (k = 0; k < t->count; k++)
        offers += e[k].joint == end;
    for (k = b + 1; k < t->branch_count; k++)
        offers += t->branches[k].parent == b;
    return offers;
}

// Each branch's chain solve from q (clamped into the limits, written back into t->q), in mem.
static void ik__fabrik_tree_load(ik__fabrik_tree *t, const ik_skeleton *s, const ik_effector *e,
                                 ik_joint *joints, ik_real *mem)
{
    int b, i, c, dof;
    for (b = 0; b < t->branch_count; b++) {
        ik__fabrik_branch *br = &t->branches[b];
        const int n = br->chain.joint_count;
        for (i = 0, dof = 0; i < n; i++)
            dof += ik_joint_type_dof(s->joints[br->path[i]].type);
        br->q = mem + ik__fabrik_reals(n, dof) - dof; // (the chain solve's own q)
        for (i = 0, dof = 0; i < n; i++) {
            joints[i] = s->joints[br->path[i]];
            for (c = 0; c < ik_joint_type_dof(joints[i].type); c++)
                br->q[dof++] = t->q[t->state_at[br->path[i]] + c];
        }
        br->chain = ik_chain_make(
            joints, n, br->tip >= 0 ? e[br->tip].offset : ik__fabrik_branch_tip(t, s, b));
        br->target = ik_target_position(ik_vec3_zero());
        br->posed =
            br->tip >= 0 && e[br->tip].kind == IK_EFFECTOR_POSE && e[br->tip].rotation_weight > 0;
        br->target.use_rotation = br->posed || ik__fabrik_offers(t, b, e) > 1;
        ik__fabrik_setup(&br->w, &br->chain, &br->target, br->q, mem);
        br->w.lean = br->w.lean && ik__fabrik_tree_single(t, e);
        ik__fabrik_branch_base(t, br, &br->base_rot, &br->base_pos);
        ik__fabrik_branch_end(br);
        (void)ik__fabrik_branch_store(t, br);
        joints += n;
        mem += ik__fabrik_reals(n, dof);
    }
}

// The effectors' goals (blended from the start's frames) and centroid weights: position_weight,
// times 1/100 for priority 1 while priority 0 has effectors; the branches' goal rotations.
static void ik__fabrik_tree_goals(ik__fabrik_tree *t, const ik_skeleton *s, const ik_effector *e,
                                  ik_real *frames)
{
    ik__jac_work gw; // (what ik__goal_make() reads: the frames; ow 1)
    ik_chain chain = ik__skeleton_chain(s);
    bool first = false;
    int k;
    memset(&gw, 0, sizeof gw);
    gw.chain = &chain;
    gw.tree.parents = s->parents;
    gw.tree.frames = frames;
    gw.ow = 1;
    ik__jacobian(&chain, NULL, t->q, 6, t->dof, NULL, false, 1, NULL, NULL, &gw.tree);
    for (k = 0; k < t->count; k++)
        first = first || e[k].priority == 0;
    for (k = 0; k < t->count; k++) {
        ik__goal_make(&gw, &e[k], 0, &t->goals[k]);
        t->weights[k] = e[k].position_weight * (first && e[k].priority == 1 ? IK__CCD_LOW : 1);
    }
    for (k = 0; k < t->branch_count; k++) {
        ik__fabrik_branch *br = &t->branches[k];
        if (br->tip >= 0)
            br->pose_rot =
                ik_mat3_mul(t->goals[br->tip].rot,
                            ik__quat_to_mat3_unit(ik__quat_unitize(e[br->tip].offset.rot)));
    }
}

// The values in q of the joints on no branch (kids: ik__fabrik_tree_split()'s) into their limits,
// as a branch's joints are loaded (a ball with a limit projected into it).
static void ik__fabrik_tree_clamp(ik__fabrik_tree *t, const ik_skeleton *s, const int *kids)
{
    int i;
    for (i = 0; i < s->joint_count; i++) {
        const ik_joint *j = &s->joints[i];
        ik_real *v = t->q + t->state_at[i];
        ik_vec3 e;
        if (kids[i] > 0 || t->branch_of[i] >= 0) // (on a branch)
            continue;
        if (j->type == IK_JOINT_REVOLUTE || j->type == IK_JOINT_PRISMATIC)
            v[0] = ik__clamp(v[0], j->lo, j->hi);
        if (j->type != IK_JOINT_BALL || !j->limit)
            continue;
        e = ik__quat_log(ik_ball_limit_project(
            j->limit,
            ik__quat_unit_or_normalize(ik_quat_from_expmap(ik_vec3_make(v[0], v[1], v[2])))));
        v[0] = e.x;
        v[1] = e.y;
        v[2] = e.z;
    }
}

// The solve in base (ik__fabrik_tree_reals()) from q_io.
static void ik__fabrik_tree_init(ik__fabrik_tree *t, const ik_skeleton *s, const ik_effector *e,
                                 int count, const ik_fabrik_opts *o, int dof, ik_real *base,
                                 const ik_real *q_io)
{
    const size_t n = (size_t)s->joint_count;
    const size_t skip = (sizeof(void *) - (size_t)base % sizeof(void *)) % sizeof(void *);
    ik_real *at = (ik_real *)(void *)((char *)base + skip), *frames;
    ik_joint *joints;
    int *ints, i;
    ik_chain chain = ik__skeleton_chain(s);
    t->o = o;
    t->count = count;
    t->dof = dof;
    t->scale = ik__length_scale(ik__skeleton_size(&chain, s->parents));
    t->branches = (ik__fabrik_branch *)(void *)at;
    joints = (ik_joint *)(void *)(t->branches + n);
    at += IK__REALS_OF(n * (sizeof(ik__fabrik_branch) + sizeof(ik_joint)));
    ints = (int *)(void *)at;
    at += IK__REALS_OF(5 * n * sizeof(int));
    t->branch_of = ints;
    t->state_at = ints + n;
    t->q = at;
    frames = at + dof;
    t->goals = (ik__effector_goal *)(void *)(frames + 12 * n);
    t->weights = frames + 12 * n + (size_t)count * IK__GOAL_REALS;
    t->pos_err = t->weights + count;
    t->rot_err = t->pos_err + count;
    memcpy(t->q, q_io, (size_t)dof * sizeof *q_io);
    t->state_at[0] = 0;
    for (i = 0; i + 1 < s->joint_count; i++)
        t->state_at[i + 1] = t->state_at[i] + ik_joint_type_dof(s->joints[i].type);
    ik__fabrik_tree_split(t, s, e, ints + 2 * n, ints + 3 * n, ints + 4 * n);
    ik__fabrik_tree_clamp(t, s, ints + 3 * n);
    ik__fabrik_tree_load(t, s, e, joints, t->rot_err + count);
    ik__fabrik_tree_goals(t, s, e, frames);
}

// The weighted sums of an end's offers: points v in its frame, d where they are wanted (model).
typedef struct ik__fabrik_sums {
    ik_real s[3][3]; // sum w v d^T
    ik_vec3 v, d;    // sum w v, sum w d
    ik_real w, vv;   // sum w, sum w |v|^2
} ik__fabrik_sums;

static void ik__fabrik_sum(ik__fabrik_sums *a, ik_vec3 v, ik_vec3 d, ik_real w)
{
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++)
            a->s[r][c] += w * (&v.x)[r] * (&d.x)[c];
    a->v = ik_vec3_add_scaled(a->v, v, w);
    a->d = ik_vec3_add_scaled(a->d, d, w);
    a->w += w;
    a->vv += w * ik_vec3_length2(v);
}

// The end frame's rotation that best carries the offers' points to where they are wanted about
// their centroids (Horn's method), held toward its rotation now where they leave a spin free.
static ik_mat3 ik__fabrik_fit(ik__fabrik_sums *a, const ik_mat3 *now)
{
    const ik_vec3 l = ik_vec3_scale(a->v, 1 / a->w), m = ik_vec3_scale(a->d, 1 / a->w);
    const ik_real hold = IK_R(1e-3) * (a->vv - a->w * ik_vec3_length2(l)) + IK__TINY2;
    int r, c;
    for (r = 0; r < 3; r++)
        for (c = 0; c < 3; c++)
            a->s[r][c] += hold * now->m[c][r] - a->w * (&l.x)[r] * (&m.x)[c];
    return ik__quat_to_mat3_unit(ik__quat_unitize(ik__horn_rotation(a->s)));
}

// Branch b's end's goal from its offers (its effectors' targets, where its children's
// forward-reaching passes put their first points), weighted: the end frame's rotation fitted to
// them (or a POSE tip's), its origin at their centroid's place; the tip's place and rotation.
static void ik__fabrik_tree_goal(ik__fabrik_tree *t, int b)
{
    ik__fabrik_branch *br = &t->branches[b];
    ik__fabrik_sums a;
    ik_mat3 rot = br->end_rot;
    int k;
    memset(&a, 0, sizeof a);
    for (k = 0; k < t->count; k++)
        if (t->branch_of[t->goals[k].joint] == b && t->weights[k] > 0)
            ik__fabrik_sum(&a, t->goals[k].offset.pos, t->goals[k].pos, t->weights[k]);
    for (k = b + 1; k < t->branch_count; k++)
        if (t->branches[k].parent == b && t->branches[k].weight > 0)
            ik__fabrik_sum(&a, t->branches[k].w.points[0], t->branches[k].offer,
                           t->branches[k].weight);
    br->weight = a.w;
    if (!(a.w > 0)) { // (nothing pulls: held)
        br->goal = ik__fabrik_apply(&rot, br->end_pos, br->chain.tip.pos);
        br->goal_rot = ik_mat3_mul(rot, br->w.tip_rot);
        return;
    }
    if (br->posed)
        rot = ik__fabrik_mul(&br->pose_rot, &br->w.tip_rot, true);
    else if (br->target.use_rotation)
        rot = ik__fabrik_fit(&a, &br->end_rot);
    br->goal = ik_vec3_add(ik_vec3_scale(ik_vec3_sub(a.d, ik_mat3_mul_vec3(rot, a.v)), 1 / a.w),
                           ik_mat3_mul_vec3(rot, br->chain.tip.pos));
    br->goal_rot = ik_mat3_mul(rot, br->w.tip_rot);
}

// A branch's target in its base frame from its goal.
static void ik__fabrik_branch_target(ik__fabrik_branch *br)
{
    br->target.pos = ik__fabrik_back(&br->base_rot, ik_vec3_sub(br->goal, br->base_pos));
    if (br->target.use_rotation)
        br->w.target_rot = ik_mat3_mul(ik_mat3_transpose(br->base_rot), br->goal_rot);
}

// The forward-reaching pass, children first: each end's goal, its branch's pass toward it, and
// where that puts its first point (its offer to its parent).
static void ik__fabrik_tree_forward(ik__fabrik_tree *t)
{
    int b;
    for (b = t->branch_count - 1; b >= 0; b--) {
        ik__fabrik_branch *br = &t->branches[b];
        ik__fabrik_work *w = &br->w;
        ik__fabrik_tree_goal(t, b);
        ik__fabrik_branch_target(br);
        br->offer = br->goal; // (rigid: its one point at the goal)
        if (w->count > 1) {
            if (w->slides)
                ik__fabrik_lengths(w);
            ik__fabrik_reverse(w);
            br->offer = ik__fabrik_apply(&br->base_rot, br->base_pos, w->placed[0]);
        }
    }
}

// The backward-reaching pass, parents first: each branch's places moved into its new base frame,
// its target there, its joints' steps (straight toward a target beyond its reach), its end.
static void ik__fabrik_tree_backward(ik__fabrik_tree *t)
{
    int b, k;
    for (b = 0; b < t->branch_count; b++) {
        ik__fabrik_branch *br = &t->branches[b];
        ik__fabrik_work *w = &br->w;
        ik_mat3 rot;
        ik_vec3 pos;
        ik__fabrik_branch_base(t, br, &rot, &pos);
        for (k = 0; w->count > 1 && k < w->count; k++)
            w->placed[k] = ik__fabrik_back(
                &rot,
                ik_vec3_sub(ik__fabrik_apply(&br->base_rot, br->base_pos, w->placed[k]), pos));
        br->base_rot = rot;
        br->base_pos = pos;
        ik__fabrik_branch_target(br);
        if (w->count > 1 && !w->pose &&
            ik_vec3_length(ik_vec3_sub(br->target.pos, w->points[0])) >= w->reach) {
            ik__fabrik_aims(w);
            for (k = 1; k < w->count; k++)
                w->placed[k] = br->target.pos;
        }
        if (w->count > 1)
            ik__fabrik_write(w, true);
        ik__fabrik_branch_end(br);
    }
}

// Every effector's errors now; the stopping error (the weighted distances, plus the angles times
// the skeleton's size), *first its priority 0 part; *met: every effector within the tolerances.
static ik_real ik__fabrik_tree_measure(ik__fabrik_tree *t, bool *met, ik_real *first)
{
    ik_real err = 0, term;
    int k;
    *met = true;
    *first = 0;
    for (k = 0; k < t->count; k++) {
        const ik__effector_goal *g = &t->goals[k];
        const ik__fabrik_branch *br = &t->branches[t->branch_of[g->joint]];
        ik_target goal;
        ik_xform e;
        goal.pos = g->pos;
        goal.use_rotation = g->rot_rows > 0;
        goal.rot = goal.use_rotation ? ik__quat_from_mat3(&g->rot) : ik_quat_identity();
        e.pos = ik__fabrik_apply(&br->end_rot, br->end_pos, g->offset.pos);
        e.rot = goal.use_rotation ? ik__quat_from_mat3(&br->end_rot) : ik_quat_identity();
        ik__pose_error(&goal, e, 1, 1, 0, &t->pos_err[k], &t->rot_err[k]);
        t->pos_err[k] = g->pos_rows ? t->pos_err[k] : 0;
        term = g->pw * t->pos_err[k] + g->rw * t->rot_err[k] * t->scale;
        if (t->weights[k] < g->pw) // (priority 1's factor)
            term *= IK__CCD_LOW;
        else
            *first += term;
        err += term;
        *met =
            *met && t->pos_err[k] <= t->o->tolerance && t->rot_err[k] <= t->o->rotation_tolerance;
    }
    return err;
}

// Whether every effector of priority 0 (a full weight) is within the tolerances.
static bool ik__fabrik_tree_first_met(const ik__fabrik_tree *t)
{
    int k;
    for (k = 0; k < t->count; k++)
        if (t->weights[k] == t->goals[k].pw &&
            !(t->pos_err[k] <= t->o->tolerance && t->rot_err[k] <= t->o->rotation_tolerance))
            return false;
    return true;
}

// Whether err or its priority 0 part first is below the least so far (best[2]) by the fraction
// min_improvement (fresh: the first measure), and the least so far updated.
static bool ik__fabrik_improved(ik_real best[2], ik_real err, ik_real first,
                                ik_real min_improvement, bool fresh)
{
    bool better =
        fresh || err < best[0] * (1 - min_improvement) || first < best[1] * (1 - min_improvement);
    best[0] = fresh || err < best[0] ? err : best[0];
    best[1] = fresh || first < best[1] ? first : best[1];
    return better;
}

// The iterations until every effector is met, stalled (3 in a row that lower neither the error
// nor its priority 0 part by min_improvement) or max_iterations. With two priorities the last
// fifth is kept: where the rest ends with priority 0 not met, priority 0 alone goes on (priority
// 1's weights 0), else every effector.
static ik_status ik__fabrik_tree_iterate(ik__fabrik_tree *t, int *iterations)
{
    const ik_fabrik_opts *o = t->o;
    ik_real best[2] = { 0, 0 }, err, first;
    int idle = 0, k, last = o->max_iterations;
    bool met, low = false, fresh = true;
    for (k = 0; k < t->count; k++)
        low = low || t->weights[k] < t->goals[k].pw;
    last -= low ? o->max_iterations / 5 : 0;
    for (*iterations = 0;; ++*iterations) {
        err = ik__fabrik_tree_measure(t, &met, &first);
        if (met)
            return IK_STATUS_CONVERGED;
        idle = ik__fabrik_improved(best, err, first, o->min_improvement, fresh) ? 0 : idle + 1;
        fresh = false;
        if (idle >= 3 || *iterations == last) {
            if (!low || *iterations == o->max_iterations)
                return idle >= 3 ? IK_STATUS_STALLED : IK_STATUS_MAX_ITERATIONS;
            for (k = 0; !ik__fabrik_tree_first_met(t) && k < t->count; k++)
                t->weights[k] = t->weights[k] < t->goals[k].pw ? 0 : t->weights[k]; // (alone)
            low = false;
            last = o->max_iterations;
            fresh = true;
        }
        ik__fabrik_tree_forward(t);
        ik__fabrik_tree_backward(t);
    }
}

// The solve: one branch with one effector by ik_fabrik_solve()'s loop, else the tree's.
static ik_status ik__fabrik_tree_run(ik__fabrik_tree *t, const ik_effector *e, int *iterations)
{
    ik__fabrik_branch *br = &t->branches[0];
    ik_target in = ik_target_position(e[0].target);
    ik_status status;
    ik_real first;
    bool met;
    if (!ik__fabrik_tree_single(t, e))
        return ik__fabrik_tree_iterate(t, iterations);
    in.rot = e[0].target_rot;
    in.use_rotation = br->target.use_rotation;
    (void)ik__target_prepare(&in, &br->target);
    if (e[0].blend < 1) // (the blended goal)
        br->target.pos = t->goals[0].pos;
    if (e[0].blend < 1 && in.use_rotation)
        br->target.rot = ik__quat_unitize(ik__quat_from_mat3(&br->pose_rot));
    br->w.target_rot = ik__quat_to_mat3_unit(br->target.rot);
    status = ik__fabrik_converge(&br->w, t->o, ik__length_scale(ik__chain_reach(&br->chain)),
                                 iterations);
    ik__fabrik_branch_end(br);
    ik__fabrik_tree_measure(t, &met, &first);
    return status;
}

// A skeleton solve's info (the largest errors) and each effector's, from their errors.
static void ik__effector_infos(const ik_real *pos_err, const ik_real *rot_err, int count,
                               ik_real tolerance, ik_real rotation_tolerance, int iterations,
                               ik_status status, ik_solve_info *info, ik_effector_info *out)
{
    int k;
    if (info) {
        info->status = status;
        info->iterations = iterations;
        info->position_error = info->rotation_error = 0;
    }
    for (k = 0; k < count; k++) {
        if (info && pos_err[k] > info->position_error)
            info->position_error = pos_err[k];
        if (info && rot_err[k] > info->rotation_error)
            info->rotation_error = rot_err[k];
        if (out) {
            out[k].position_error = pos_err[k];
            out[k].rotation_error = rot_err[k];
            out[k].met = pos_err[k] <= tolerance && rot_err[k] <= rotation_tolerance;
        }
    }
}

IKDEF ik_result ik_skeleton_fabrik_solve(const ik_skeleton *skeleton, const ik_effector *effectors,
                                         int effector_count, const ik_fabrik_opts *opts,
                                         ik_real *q_io, void *scratch, size_t scratch_size,
                                         ik_solve_info *info, ik_effector_info *out_effectors)
{
    const ik_fabrik_opts o = opts ? *opts : ik_default_fabrik_opts();
    ik__fabrik_tree t;
    ik_chain chain;
    ik_real *base;
    ik_status status;
    int dof = 0, rows = 0, it = 0, k;
    ik_result r =
        ik__skeleton_inputs(skeleton, effectors, effector_count, ik__fabrik_opts_valid(&o), NULL,
                            q_io, scratch, scratch_size, info, out_effectors, &dof, &rows);
    if (r != IK_OK)
        return r;
    for (k = 0; k < effector_count; k++)
        if (effectors[k].kind != IK_EFFECTOR_POSITION && effectors[k].kind != IK_EFFECTOR_POSE)
            return IK_ERR_BAD_ARG;
    base = ik__scratch_reals(scratch, scratch_size,
                             ik__fabrik_tree_reals(skeleton->joint_count, dof, effector_count));
    if (!base)
        return IK_ERR_SCRATCH_TOO_SMALL;
    ik__fabrik_tree_init(&t, skeleton, effectors, effector_count, &o, dof, base, q_io);
    status = ik__fabrik_tree_run(&t, effectors, &it);
    chain = ik__skeleton_chain(skeleton);
    if (status != IK_STATUS_CONVERGED &&
        ik__goals_beyond(&chain, skeleton->parents, t.goals, effector_count, o.tolerance))
        status = IK_STATUS_UNREACHABLE;
    for (k = 0; k < t.branch_count; k++)
        if (!ik__fabrik_branch_store(&t, &t.branches[k]))
            return IK_ERR_NUMERIC;
    for (k = 0; k < dof; k++)
        if (!ik__bounded(t.q[k]))
            return IK_ERR_NUMERIC;
    memcpy(q_io, t.q, (size_t)dof * sizeof *q_io);
    ik__effector_infos(t.pos_err, t.rot_err, effector_count, o.tolerance, o.rotation_tolerance, it,
                       status, info, out_effectors);
    return IK_OK;
}

// ---- implementation: analytic limb -------------------------------------------------------------

// After Tolani, Goswami and Badler 2000, for any bone and hinge axes: derived in docs/limb.md.

// The limb's shape at elbow angle theta, in the shoulder frame.
typedef struct ik__limb_shape {
    ik_quat elbow_rot; // the elbow's rotation
    ik_vec3 lower;     // the lower bone
    ik_vec3 line;      // unit shoulder -> wrist direction (a_l in docs/limb.md)
    ik_vec3 side;      // unit elbow side, perpendicular to line (b_l)
    ik_real w_len;     // |w|
} ik__limb_shape;

#define IK__OPTS_VALID 0x1c0ffee
#define IK__LIMB_VALID 0x11b0ace

IKDEF ik_limb_opts ik_default_limb_opts(void)
{
    ik_limb_opts o = { 0, IK_R(0.01), IK__OPTS_VALID }; // softness 0, pole_band 0.01
    return o;
}

// |v| without the underflow (or overflow) of its square for tiny (huge) finite v.
static ik_real ik__limb_length(ik_vec3 v)
{
    ik_real l2 = ik_vec3_length2(v), m;
    if (l2 >= IK__REAL_MIN && l2 <= IK__REAL_MAX)
        return IK_SQRT(l2);
    m = ik__vec3_max_abs(v);
    if (!(m > 0 && m <= IK__REAL_MAX))
        return m;
    v = ik_vec3_make(v.x / m, v.y / m, v.z / m);
    return m * IK_SQRT(ik_vec3_length2(v));
}

// dist / unit (a distance in a limb's units), or REAL_MAX where that overflows (tested first).
static inline ik_real ik__limb_units(ik_real dist, ik_real unit)
{
    return unit >= 1 || dist <= unit * (IK__REAL_MAX / 2) ? dist / unit : IK__REAL_MAX;
}

// v / d (d > 0), by 1 / d unless that overflows.
static ik_vec3 ik__limb_div(ik_vec3 v, ik_real d)
{
    ik_real r = 1 / d;
    return r <= IK__REAL_MAX ? ik_vec3_scale(v, r) : ik_vec3_make(v.x / d, v.y / d, v.z / d);
}

// v / |v|, or v itself when it is unit to rounding already (most inputs).
static inline ik_vec3 ik__limb_unit(ik_vec3 v)
{
    return IK_FABS(ik_vec3_length2(v) - 1) <= 4 * IK_EPSILON ? v : ik__vec3_unit(v);
}

static inline ik_quat ik__limb_quat_unit(ik_quat q)
{
    // (q finite; one with |x| + |y| + |z| + |w| > 4 is not unit, and its squares may overflow)
    return IK_FABS(q.x) + IK_FABS(q.y) + IK_FABS(q.z) + IK_FABS(q.w) <= 4 &&
                   IK_FABS(ik_quat_dot(q, q) - 1) <= 4 * IK_EPSILON
               ? q
               : ik_quat_normalize(q);
}

// The rotation about a unit axis whose angle has cosine c and sine s, by the half-angle formulas
// (the larger of the half angle's cos and sin from its square root); either sign may come out.
static ik_quat ik__quat_unit_axis_cs(ik_vec3 axis, ik_real c, ik_real s)
{
    ik_real ch, sh;
    if (c >= 0) {
        ch = IK_SQRT((1 + c) / 2);
        sh = s / (2 * ch);
    } else {
        sh = IK_SQRT((1 - c) / 2);
        sh = s < 0 ? -sh : sh;
        ch = s / (2 * sh);
    }
    return ik_quat_make(axis.x * sh, axis.y * sh, axis.z * sh, ch);
}

// The checks of a limb's fields (before its directions are normalized).
static inline bool ik__limb_valid(const ik_limb *in)
{
    return ik__vec3_bounded(in->base.pos) && ik__vec3_bounded(in->upper_dir) &&
           ik__vec3_bounded(in->lower_dir) && ik__vec3_bounded(in->hinge_axis) &&
           ik__vec3_bounded(in->swivel_ref) && ik__bounded(in->upper_length) &&
           ik__bounded(in->lower_length) && ik__quat_usable(in->base.rot) &&
           !(in->upper_length < 0 || in->lower_length < 0);
}

// The elbow's geometry from g's unit directions and lengths (docs/limb.md, "Geometry"): a, rg,
// t0, and the lower bone lower_along + lower_cos cos t + lower_sin sin t.
static inline void ik__limb_prepare_bend(ik_limb_prepared *g)
{
    ik_real dh1 = ik_vec3_dot(g->upper_dir, g->hinge_axis),
            dh2 = ik_vec3_dot(g->lower_dir, g->hinge_axis), b, c;
    ik_vec3 d2p = ik_vec3_add_scaled(g->lower_dir, g->hinge_axis, -dh2);
    g->a = dh1 * dh2;
    b = ik_vec3_dot(g->upper_dir, d2p);
    c = ik_vec3_dot(g->upper_dir, ik_vec3_cross(g->hinge_axis, d2p));
    g->rg = IK_SQRT(b * b + c * c);
    g->cos_t0 = g->rg > 0 ? b / g->rg : 1;
    g->sin_t0 = g->rg > 0 ? c / g->rg : 0;
    g->elbow = ik_vec3_scale(g->upper_dir, g->upper_length);
    g->lower_along = ik_vec3_scale(g->hinge_axis, g->lower_length * dh2);
    g->lower_cos = ik_vec3_scale(d2p, g->lower_length);
    g->lower_sin = ik_vec3_cross(g->hinge_axis, g->lower_cos);
}

// The squared reach reach2_mid + reach2_half cos(t - t0), its range, the elbow solve's constants.
static inline void ik__limb_prepare_reach(ik_limb_prepared *g)
{
    ik_real k = 2 * g->upper_length * g->lower_length,
            s2 = g->upper_length * g->upper_length + g->lower_length * g->lower_length, unit2;
    ik_quat h0;
    g->reach2_max = s2 + k * (g->a + g->rg);
    g->reach2_min = s2 + k * (g->a - g->rg);
    g->reach2_min = g->reach2_min > 0 ? g->reach2_min : 0;
    g->t0 = IK_ATAN2(g->sin_t0, g->cos_t0);
    g->t0 = g->t0 <= -IK_PI ? IK_PI : g->t0; // (sin_t0 = -0: the same angle)
    h0 = ik__quat_unit_axis_cs(ik_vec3_make(0, 0, 1), g->cos_t0, g->sin_t0);
    g->cos_h0 = h0.w, g->sin_h0 = h0.z; // (h0.w >= 0 by its construction)
    g->reach2_mid = s2 + k * g->a;
    g->reach2_half = k * g->rg;
    // (0 where the inverse would overflow: tested first, so that no FE_OVERFLOW is raised)
    g->reach2_half_inv = g->reach2_half > IK__REAL_MIN ? 1 / g->reach2_half : 0;
    // (and 0 where |t|^2 unit2_inv could overflow, |t|^2 <= 12 IK_MAX_MAGNITUDE^2)
    unit2 = g->length_unit * g->length_unit; // (at most about 1e25: lengths are bounded)
    g->unit2_inv =
        unit2 > 12 * IK_MAX_MAGNITUDE * IK_MAX_MAGNITUDE / IK__REAL_MAX && unit2 > IK__REAL_MIN
            ? 1 / unit2
            : 0;
}

// The squared reach at elbow angle theta (in the limb's unit).
static ik_real ik__limb_reach2_at(const ik_limb_prepared *g, ik_real theta)
{
    return g->reach2_mid + g->reach2_half * IK_COS(theta - g->t0);
}

// Checks g->limits and prepares the elbow range within the bending branch t0 + [0, pi] and its
// band of squared reach (docs/limb.md, "Limits"); false for bad limits.
static bool ik__limb_prepare_limits(ik_limb_prepared *g)
{
    const ik_limb_limits *l = g->limits;
    ik_real lo = l->elbow_lo, hi = l->elbow_hi;
    if (!(ik__bounded(lo) && ik__bounded(hi) && lo <= hi) || !ik__ball_limit_valid(&l->shoulder) ||
        !ik__ball_limit_valid(&l->wrist))
        return false;
    g->elbow_lo = lo > g->t0 ? lo : g->t0;
    g->elbow_hi = hi < g->t0 + IK_PI ? hi : g->t0 + IK_PI;
    if (!(g->elbow_lo <= g->elbow_hi))
        return false;
    // (at the branch's ends the plain bounds exactly)
    g->elbow_reach2_max = g->elbow_lo == g->t0 ? g->reach2_max : ik__limb_reach2_at(g, g->elbow_lo);
    g->elbow_reach2_min =
        g->elbow_hi == g->t0 + IK_PI ? g->reach2_min : ik__limb_reach2_at(g, g->elbow_hi);
    g->elbow_reach2_min = ik__clamp(g->elbow_reach2_min, g->reach2_min, g->elbow_reach2_max);
    g->elbow_half[0] = IK_COS(g->elbow_lo / 2);
    g->elbow_half[1] = IK_SIN(g->elbow_lo / 2);
    g->elbow_half[2] = IK_COS(g->elbow_hi / 2);
    g->elbow_half[3] = IK_SIN(g->elbow_hi / 2);
    return true;
}

IKDEF ik_result ik_limb_prepare(const ik_limb *in, ik_limb_prepared *out)
{
    ik_limb_prepared g;
    if (!in || !out)
        return IK_ERR_NULL_ARG;
    if (!ik__limb_valid(in))
        return IK_ERR_BAD_ARG;
    // unit directions (none of them zero)
    g.upper_dir = ik__limb_unit(in->upper_dir);
    g.lower_dir = ik__limb_unit(in->lower_dir);
    g.hinge_axis = ik__limb_unit(in->hinge_axis);
    if (ik_vec3_length2(g.upper_dir) == 0 || ik_vec3_length2(g.lower_dir) == 0 ||
        ik_vec3_length2(g.hinge_axis) == 0)
        return IK_ERR_BAD_ARG;
    // the base, and the lengths in the limb's unit (their sum, 1 if both are 0)
    g.base.pos = in->base.pos;
    g.base.rot = ik__limb_quat_unit(in->base.rot);
    g.swivel_ref = in->swivel_ref;
    g.length_unit =
        in->upper_length + in->lower_length > 0 ? in->upper_length + in->lower_length : 1;
    g.upper_length = in->upper_length / g.length_unit;
    g.lower_length = in->lower_length / g.length_unit;
    // the elbow's geometry; a hinge along either bone cannot change the reach
    ik__limb_prepare_bend(&g);
    if (g.upper_length > 0 && g.lower_length > 0 && g.rg < IK_R(1e-6))
        return IK_ERR_BAD_ARG;
    ik__limb_prepare_reach(&g); // the reach's range and the elbow angle's constants
    g.limits = in->limits;
    if (g.limits && !ik__limb_prepare_limits(&g))
        return IK_ERR_BAD_ARG;
    g._valid = IK__LIMB_VALID;
    *out = g;
    return IK_OK;
}

// atan(z) for z in [0, 1], within 2 ulps: a table of atan(k / 16) and a 7-term series
// (docs/limb.md, "Inside the solver").
static inline ik_real ik__atan01(ik_real z)
{
    static const ik_real atan_t[16] = { IK_R(0),
                                        IK_R(0.062418809995957348475),
                                        IK_R(0.12435499454676143503),
                                        IK_R(0.18534794999569476488),
                                        IK_R(0.24497866312686415417),
                                        IK_R(0.30288486837497140557),
                                        IK_R(0.35877067027057222041),
                                        IK_R(0.41241044159738730689),
                                        IK_R(0.4636476090008061162),
                                        IK_R(0.51238946031073770665),
                                        IK_R(0.55859931534356243595),
                                        IK_R(0.60228734613496418167),
                                        IK_R(0.6435011087932843868),
                                        IK_R(0.68231655487474807825),
                                        IK_R(0.71882999962162450543),
                                        IK_R(0.75315128096219438955) };
    int k = z < 1 ? (int)(z * 16) : 15;
    ik_real t = (ik_real)k / 16, u = (z - t) / (1 + z * t), u2 = u * u;
    ik_real p = IK_R(-1.0) / 13 * u2 + IK_R(1.0) / 11; // the series by Horner's rule
    p = p * u2 - IK_R(1.0) / 9;
    p = p * u2 + IK_R(1.0) / 7;
    p = p * u2 - IK_R(1.0) / 5;
    p = p * u2 + IK_R(1.0) / 3;
    return atan_t[k] + (u - u * u2 * p);
}

// theta + 2 pi k nearest to ref (so that joint values do not jump by 2 pi along a path).
static inline ik_real ik__angle_near(ik_real theta, ik_real ref)
{
    ik_real k = (ref - theta) / (2 * IK_PI), r;
    // within half a turn: nearest as it is (k's rounding could pick the other turn near pi)
    if (IK_FABS(ref - theta) < IK_PI)
        return theta;
    if (!(IK_FABS(k) <= IK_MAX_MAGNITUDE)) // (the answer would be beyond it anyway)
        return theta;
    k = (ik_real)(long long)(k < 0 ? k - IK_R(0.5) : k + IK_R(0.5));
    r = theta + 2 * IK_PI * k;
    return IK_FABS(r) <= IK_MAX_MAGNITUDE / 2 ? r : theta;
}

// The exponential map (a + 2 pi k) n of the unit quaternion q nearest v [3], k = -1, 0 or 1, in v
// (docs/limb.md, "Inside the solver"): continuous along a path through angle pi.
static inline void ik__limb_log_near(ik_quat q, ik_real *v)
{
    ik_vec3 n, ref = ik_vec3_make(v[0], v[1], v[2]);
    ik_real s, a, p;
    q = q.w < 0 ? ik__quat_scale(q, -1) : q; // (a half turn, w = 0: either sign, see below)
    s = IK_SQRT(q.x * q.x + q.y * q.y + q.z * q.z);
    if (s > 0) {
        n = ik_vec3_scale(ik_vec3_make(q.x, q.y, q.z), 1 / s);
        a = 2 * IK_ATAN2(s, q.w);
    } else {
        n = ik__vec3_unit(ref); // the identity: the turns about ref's axis are its other maps
        a = 0;
    }
    p = ik_vec3_dot(n, ref);
    a = p > a + IK_PI ? a + 2 * IK_PI : (p < a - IK_PI ? a - 2 * IK_PI : a);
    n = ik_vec3_scale(n, a);
    v[0] = n.x;
    v[1] = n.y;
    v[2] = n.z;
}

// v made perpendicular to the unit vector a (projected twice), and normalized; zero, "no side",
// where what is left of v's direction is at rounding level.
static ik_vec3 ik__perp_unit(ik_vec3 v, ik_vec3 a)
{
    ik_vec3 u = ik__vec3_unit(v), p = ik_vec3_add_scaled(u, a, -ik_vec3_dot(u, a));
    if (ik_vec3_length2(p) <= 64 * IK_EPSILON * IK_EPSILON)
        return ik_vec3_zero();
    return ik__vec3_unit(ik_vec3_add_scaled(p, a, -ik_vec3_dot(p, a)));
}

// The part of v perpendicular to the unit vector a, projected again when shorter than |v| / 2
// (docs/limb.md, "The shoulder and the wrist").
static inline ik_vec3 ik__limb_perp2(ik_vec3 v, ik_vec3 a)
{
    ik_vec3 p = ik_vec3_add_scaled(v, a, -ik_vec3_dot(v, a));
    return 4 * ik_vec3_length2(p) >= ik_vec3_length2(v)
               ? p
               : ik_vec3_add_scaled(p, a, -ik_vec3_dot(p, a));
}

// ik__quat_from_frames() beyond 162 degrees: Shepperd's method on M (rare: out of line).
IK__NOINLINE static ik_quat ik__quat_from_frames_far(ik_vec3 a, ik_vec3 b, ik_vec3 c, ik_vec3 d)
{
    ik_vec3 e = ik_vec3_cross(a, b), f = ik_vec3_cross(c, d);
    ik_mat3 m;
    m.m[0][0] = c.x * a.x + d.x * b.x + f.x * e.x;
    m.m[0][1] = c.x * a.y + d.x * b.y + f.x * e.y;
    m.m[0][2] = c.x * a.z + d.x * b.z + f.x * e.z;
    m.m[1][0] = c.y * a.x + d.y * b.x + f.y * e.x;
    m.m[1][1] = c.y * a.y + d.y * b.y + f.y * e.y;
    m.m[1][2] = c.y * a.z + d.y * b.z + f.y * e.z;
    m.m[2][0] = c.z * a.x + d.z * b.x + f.z * e.x;
    m.m[2][1] = c.z * a.y + d.z * b.y + f.z * e.y;
    m.m[2][2] = c.z * a.z + d.z * b.z + f.z * e.z;
    return ik__quat_from_mat3(&m);
}

// The rotation taking the frame (a, b, a x b) onto (c, d, c x d) times a positive factor, which
// callers remove (docs/limb.md, "The shoulder and the wrist").
static inline IK__ALWAYS_INLINE ik_quat ik__quat_from_frames(ik_vec3 a, ik_vec3 b, ik_vec3 c,
                                                             ik_vec3 d)
{
    ik_vec3 e = ik_vec3_cross(a, b), f = ik_vec3_cross(c, d), v;
    ik_real tr = ik_vec3_dot(a, c) + ik_vec3_dot(b, d) + ik_vec3_dot(e, f);
    if (!(tr >= IK_R(-0.9)))
        return ik__quat_from_frames_far(a, b, c, d);
    v = ik_vec3_add(ik_vec3_add(ik_vec3_cross(a, c), ik_vec3_cross(b, d)), ik_vec3_cross(e, f));
    return ik_quat_make(v.x, v.y, v.z, 1 + tr);
}

// The elbow side when the elbow is on the shoulder-wrist line: the side it comes from as the angle
// enters this end of its range (docs/limb.md, "Straight or folded limb").
static ik_vec3 ik__limb_side_on_line(const ik_limb_prepared *g, ik_real cos_t, ik_real sin_t,
                                     ik_vec3 lower, ik_vec3 line)
{
    ik_real toward_straight = g->cos_t0 * cos_t + g->sin_t0 * sin_t;
    ik_vec3 dw = ik_vec3_cross(g->hinge_axis, lower);
    bool behind = (toward_straight >= 0) == (ik_vec3_dot(g->elbow, line) >= 0);
    ik_vec3 side = ik__perp_unit(ik_vec3_scale(dw, behind ? -1 : 1), line);
    return ik_vec3_length2(side) == 0 ? ik_vec3_any_perpendicular(line) : side;
}

// The limb's shape at the elbow angle whose half has cosine ch and sine sh (a unit pair); the
// line is w inv_len where that is unit to rounding (inv_len: 1 / |w| or 0), else w / |w|.
static inline void ik__limb_shape_at(const ik_limb_prepared *g, ik_real ch, ik_real sh,
                                     ik_real inv_len, ik__limb_shape *out)
{
    ik_real tiny2 = 16 * IK_EPSILON * (g->upper_length + g->lower_length), wrist2, side2;
    ik_real cos_t = ch * ch - sh * sh, sin_t = 2 * ch * sh;
    ik_vec3 wrist;
    tiny2 *= tiny2;
    out->lower = ik_vec3_add_scaled(ik_vec3_add_scaled(g->lower_along, g->lower_cos, cos_t),
                                    g->lower_sin, sin_t);
    out->elbow_rot =
        ik_quat_make(g->hinge_axis.x * sh, g->hinge_axis.y * sh, g->hinge_axis.z * sh, ch);
    wrist = ik_vec3_add(g->elbow, out->lower);
    wrist2 = ik_vec3_length2(wrist);
    out->w_len = IK_SQRT(wrist2);
    out->line = ik_vec3_scale(wrist, inv_len);
    if (!(IK_FABS(ik_vec3_length2(out->line) - 1) <= 4 * IK_EPSILON))
        out->line = wrist2 > tiny2 ? ik_vec3_scale(wrist, 1 / out->w_len)
                                   : (g->upper_length > 0 ? g->upper_dir : g->lower_dir);
    // the elbow's side: its offset from the line, unless |offset| |w| is rounding noise
    // (docs/limb.md, "Straight or folded limb")
    out->side = ik__limb_perp2(g->elbow, out->line);
    side2 = ik_vec3_length2(out->side);
    out->side = side2 * wrist2 > 16 * tiny2
                    ? ik_vec3_scale(out->side, 1 / IK_SQRT(side2))
                    : ik__limb_side_on_line(g, cos_t, sin_t, out->lower, out->line);
}

// The current pose (q, or pose when q is NULL): the model-frame shoulder rotation (returned) and
// the limb's shape; now (may be NULL) is taken as the shape where the elbow angle is theta to
// rounding (docs/limb.md, "Pole on the shoulder-wrist line").
static ik_quat ik__limb_current(const ik_limb_prepared *g, const ik_real *q,
                                const ik_limb_pose *pose, ik_real theta, const ik__limb_shape *now,
                                ik__limb_shape *cur)
{
    ik_real t = q ? q[3] : pose->elbow;
    ik_quat s =
        q ? ik_quat_from_expmap(ik_vec3_make(q[0], q[1], q[2])) : ik_quat_normalize(pose->shoulder);
    if (now && IK_FABS(t - theta) <= IK_EPSILON * IK_FABS(theta))
        *cur = *now;
    else
        ik__limb_shape_at(g, IK_COS(t / 2), IK_SIN(t / 2), 0, cur);
    return ik_quat_mul(g->base.rot, s);
}

IKDEF ik_result ik_limb_chain(const ik_limb *limb, ik_joint out_joints[3], ik_xform *out_tip)
{
    ik_limb_prepared g;
    ik_result r = ik_limb_prepare(limb, &g);
    if (r != IK_OK)
        return r;
    if (!out_joints || !out_tip)
        return IK_ERR_NULL_ARG;
    out_joints[0] = ik_joint_ball(g.base);
    out_joints[1] = ik_joint_revolute(
        ik_xform_translation(ik_vec3_scale(g.upper_dir, limb->upper_length)), g.hinge_axis);
    out_joints[2] =
        ik_joint_ball(ik_xform_translation(ik_vec3_scale(g.lower_dir, limb->lower_length)));
    if (limb->limits) { // the same limits, for the chain solvers
        out_joints[0].limit = &limb->limits->shoulder;
        out_joints[1].lo = limb->limits->elbow_lo;
        out_joints[1].hi = limb->limits->elbow_hi;
        out_joints[2].limit = &limb->limits->wrist;
    }
    *out_tip = ik_xform_identity();
    return IK_OK;
}

// Shared checks of a limb state: q [7], or (q NULL) a pose.
static inline bool ik__limb_state_valid(const ik_real *q, const ik_limb_pose *p)
{
    if (q)
        return ik__vec3_bounded(ik_vec3_make(q[0], q[1], q[2])) && ik__bounded(q[3]) &&
               ik__vec3_bounded(ik_vec3_make(q[4], q[5], q[6]));
    return ik__bounded(p->elbow) && ik__quat_usable(p->shoulder) && ik__quat_usable(p->wrist);
}

IKDEF ik_result ik_limb_solve(const ik_limb *limb, const ik_limb_target *target,
                              const ik_limb_opts *opts, ik_real *q, ik_limb_pose *out_pose,
                              ik_solve_info *info)
{
    ik_limb_prepared g;
    ik_result r = ik_limb_prepare(limb, &g);
    return r != IK_OK ? r : ik_limb_solve_prepared(&g, target, opts, q, out_pose, info);
}

// The checks of ik_limb_solve_prepared()'s options (opts non-NULL).
static inline bool ik__limb_opts_valid(const ik_limb_opts *opts)
{
    ik_real band = opts->pole_band, soft = opts->softness;
    return !(opts->_valid != IK__OPTS_VALID || !ik__bounded(soft) || soft < 0 ||
             !ik__finite(band) || !(band > 0 && band < 1));
}

// The checks of ik_limb_solve_prepared()'s arguments (the limb's own were ik_limb_prepare()'s).
static inline ik_result ik__limb_solve_check(const ik_limb_prepared *g,
                                             const ik_limb_target *target, const ik_limb_opts *opts,
                                             const ik_real *q, const ik_limb_pose *pose)
{
    if (!g || !target || (!q && !pose))
        return IK_ERR_NULL_ARG;
    if (g->_valid != IK__LIMB_VALID ||
        !(ik__vec3_bounded(target->pos) && ik__vec3_bounded(target->pole) &&
          ik__bounded(target->swivel)) ||
        (target->use_rotation && !ik__quat_usable(target->rot)) || !ik__limb_state_valid(q, pose))
        return IK_ERR_BAD_ARG;
    if (opts && !ik__limb_opts_valid(opts))
        return IK_ERR_BAD_OPTS;
    return IK_OK;
}

// The reach the elbow is bent for: the target's distance, softened and clamped to the range.
typedef struct ik__limb_reach {
    ik_vec3 to_target; // target - shoulder, model frame
    ik_real dist;      // |to_target|, model units
    ik_real reach2;    // the squared reach to bend for, in the limb's unit
    ik_real inv_len;   // 1 / that reach, in the limb's unit (inf or NaN: not used)
    bool met;          // reach2 is the target's (not clamped or softened beyond rounding)
} ik__limb_reach;

// r->dist in the limb's unit, softened by soft and clamped: r->reach2, r->inv_len and r->met.
static inline void ik__limb_reach_clamp(const ik_limb_prepared *g, ik_real soft, ik__limb_reach *r)
{
    ik_real dmax = IK_SQRT(g->reach2_max), du, reach;
    du = ik__limb_units(r->dist, g->length_unit);
    reach = du < IK__REAL_MAX ? du : dmax; // (a tiny limb's far target: out of reach)
    if (soft > 0 && reach > dmax - soft) { // soft reach (docs/limb.md, "Inside the solver")
        ik_real x = reach - (dmax - soft);
        reach = dmax - soft / (1 + x / soft);
    }
    reach = ik__clamp(reach, IK_SQRT(g->reach2_min), dmax);
    // (at a bound its square exactly: not bent by the rounding of sqrt then squaring)
    r->reach2 = reach == dmax                     ? g->reach2_max
                : reach == IK_SQRT(g->reach2_min) ? g->reach2_min
                                                  : reach * reach;
    r->inv_len = reach > IK__REAL_MIN ? 1 / reach : 0;
    // met unless clamped or softened beyond rounding
    r->met = IK_FABS(reach - du) <= 64 * IK_EPSILON * (g->upper_length + g->lower_length);
}

// The reach for a target at target_pos, with opts.softness soft (model units); squared straight
// from |to_target|^2 where that neither under- nor overflows (no square root on the critical path).
static inline IK__ALWAYS_INLINE ik__limb_reach ik__limb_reach_for(const ik_limb_prepared *g,
                                                                  ik_vec3 target_pos, ik_real soft)
{
    ik__limb_reach r;
    ik_real d2, dist2, du;
    soft = ik__limb_units(soft, g->length_unit);
    soft = soft < IK__REAL_MAX / 8 ? soft : IK__REAL_MAX / 8; // (a tiny limb's overflow)
    r.to_target = ik_vec3_sub(target_pos, g->base.pos);
    d2 = ik_vec3_length2(r.to_target);
    if (d2 >= IK__REAL_MIN && d2 <= IK__REAL_MAX && g->unit2_inv > 0) {
        r.dist = IK_SQRT(d2);
        dist2 = d2 * g->unit2_inv;
    } else {
        r.dist = ik__limb_length(r.to_target);
        du = ik__limb_units(r.dist, g->length_unit); // (REAL_MAX for a tiny limb's far target)
        dist2 = du <= 2 ? du * du : du; // (beyond 2, any value above reach2_max <= 1 will do)
    }
    r.reach2 = dist2;
    // 1 / |w| in the limb's unit; 0 (not used) within 2^-40 limbs of the shoulder
    r.inv_len = r.dist * IK_R(1099511627776.0) >= g->length_unit ? g->length_unit / r.dist : 0;
    r.met = true;
    if (soft > 0 || dist2 > g->reach2_max || dist2 < g->reach2_min)
        ik__limb_reach_clamp(g, soft, &r);
    return r;
}

// The elbow angle for the reach (the nearest to the current angle, current), and the limb's
// shape at it: theta = t0 + acos(c), by its half (docs/limb.md, "Inside the solver").
static inline IK__ALWAYS_INLINE ik_real ik__limb_bend(const ik_limb_prepared *g, ik_real reach2,
                                                      ik_real inv_len, ik_real current,
                                                      ik__limb_shape *shape)
{
    ik_real theta, ch, sh;
    if (2 * g->upper_length * g->lower_length * g->rg > 0) {
        // (at the bounds exactly straight or folded, whatever the rounding of the formula)
        ik_real c = reach2 >= g->reach2_max ? 1
                    : reach2 <= g->reach2_min
                        ? -1
                        : ik__clamp((reach2 - g->reach2_mid) * g->reach2_half_inv, -1, 1),
                ca = IK_SQRT((1 + c) / 2), sa = IK_SQRT((1 - c) / 2);
        ch = g->cos_h0 * ca - g->sin_h0 * sa;
        sh = g->sin_h0 * ca + g->cos_h0 * sa;
        theta = ik__angle_near(g->t0 + 4 * ik__atan01(sa / (1 + ca)), current);
    } else {
        theta = current; // a zero bone: the angle does not change the reach
        ch = IK_COS(theta / 2);
        sh = IK_SIN(theta / 2);
        inv_len = 0;
    }
    ik__limb_shape_at(g, ch, sh, inv_len, shape);
    return theta;
}

// The unit direction of ref's part across the unit aim, and that part's length in *across_len;
// zero (and 0) where the part is at ref's rounding level (docs/limb.md, "Pole within rounding").
static inline IK__ALWAYS_INLINE ik_vec3 ik__limb_across(ik_vec3 ref, ik_vec3 aim,
                                                        ik_real *across_len)
{
    ik_vec3 across = ik__limb_perp2(ref, aim);
    ik_real p2 = ik_vec3_length2(across), r2 = ik_vec3_length2(ref), plen;
    bool none;
    if (p2 >= IK__REAL_MIN && r2 <= IK__REAL_MAX) {
        plen = IK_SQRT(p2);
        none = p2 <= 64 * IK_EPSILON * IK_EPSILON * r2;
    } else {
        plen = ik__limb_length(across);
        none = plen <= 8 * IK_EPSILON * ik__limb_length(ref);
    }
    if (none)
        plen = 0, across = ik_vec3_zero();
    *across_len = plen;
    return plen > 0 ? ik__limb_div(across, plen) : across;
}

// The elbow side within the pole band: the current side, kept within a cone about side (zero:
// none) that opens with nearness (docs/limb.md, "Pole on the shoulder-wrist line").
static inline ik_vec3 ik__limb_band_side(const ik_limb_prepared *g, const ik_real *q,
                                         const ik_limb_pose *pose, ik_real theta,
                                         const ik__limb_shape *now, ik_vec3 aim, ik_vec3 side,
                                         ik_real nearness)
{
    ik__limb_shape cur;
    ik_real alpha, beta;
    ik_vec3 current = ik__perp_unit(
        ik_quat_rotate(ik__limb_current(g, q, pose, theta, now, &cur), cur.side), aim);
    if (ik_vec3_length2(current) == 0)
        current = ik_vec3_any_perpendicular(aim);
    alpha = IK_PI * (1 - nearness * nearness * (3 - 2 * nearness));
    if (ik_vec3_length2(side) == 0) {
        side = current;
    } else {
        beta = IK_ATAN2(ik_vec3_dot(ik_vec3_cross(side, current), aim), ik_vec3_dot(side, current));
        side = IK_FABS(beta) <= alpha
                   ? current
                   : ik_quat_rotate(ik__quat_unit_axis(aim, beta < 0 ? -alpha : alpha), side);
    }
    return ik__perp_unit(side, aim);
}

// The elbow side in the model frame, unit and perpendicular to aim: toward the pole (or the
// swivel), the current side within the pole band (docs/limb.md, "Pole on the shoulder-wrist line").
static inline IK__ALWAYS_INLINE ik_vec3 ik__limb_side(const ik_limb_prepared *g,
                                                      const ik_limb_target *target, ik_real band,
                                                      ik_real scale, const ik_real *q,
                                                      const ik_limb_pose *pose, ik_real theta,
                                                      const ik__limb_shape *shape, ik_vec3 aim)
{
    ik_real across_len, ref_len;
    ik_vec3 ref = target->use_swivel ? g->swivel_ref : ik_vec3_sub(target->pole, g->base.pos);
    ik_vec3 side = ik__limb_across(ref, aim, &across_len);
    // nearness to the line: the pole's distance from it per limb length, or swivel_ref's sine
    ref_len = target->use_swivel || scale == 0 ? ik_vec3_length(ref) : scale;
    // the swivel turns swivel_ref's side before the band's cone is put about it
    if (target->use_swivel) {
        ik_real cs = IK_COS(target->swivel), sn = IK_SIN(target->swivel);
        side = ik__perp_unit(
            ik_vec3_add_scaled(ik_vec3_scale(side, cs), ik_vec3_cross(aim, side), sn), aim);
    }
    if (!(across_len >= band * ref_len && ref_len > 0))
        side = ik__limb_band_side(g, q, pose, theta, shape, aim, side,
                                  ref_len > 0 ? across_len / ref_len / band : 0);
    // with a band below rounding level, side may be rounding noise along aim: then any side
    return ik_vec3_length2(side) == 0 ? ik_vec3_any_perpendicular(aim) : side;
}

// The wrist's rotation: what is left of target_rot after frame / frame_norm and elbow_rot (rot);
// position only, the current wrist (made only if with_current).
static inline ik_quat ik__limb_wrist(bool rot, ik_quat target_rot, ik_quat frame,
                                     ik_real frame_norm, ik_quat elbow_rot, const ik_real *q,
                                     const ik_limb_pose *pose, bool with_current)
{
    if (rot)
        return ik__quat_scale(
            ik_quat_mul(ik_quat_conjugate(ik_quat_mul(frame, elbow_rot)), target_rot), frame_norm);
    if (q && with_current)
        return ik_quat_from_expmap(ik_vec3_make(q[4], q[5], q[6]));
    return q ? ik_quat_identity() : ik__limb_quat_unit(pose->wrist);
}

// Writes the answer to q (exponential maps near the current ones) and pose, where given.
static inline void ik__limb_write(ik_quat shoulder, ik_real theta, ik_quat wrist, bool rot,
                                  ik_real *q, ik_limb_pose *pose)
{
    if (q) {
        ik__limb_log_near(shoulder, q);
        q[3] = theta;
        if (rot)
            ik__limb_log_near(wrist, q + 4);
    }
    if (pose) {
        ik_limb_pose answer = { shoulder, theta, wrist };
        *pose = answer;
    }
}

// The solve's report: the wrist's distance from the target (|w| along aim against to_target)
// and, with a target orientation, the angle from the reached one to it.
static inline void ik__limb_report(const ik_limb_prepared *g, const ik__limb_reach *r, ik_vec3 aim,
                                   ik_real w_len, ik_quat reached, bool rot, ik_quat target_rot,
                                   ik_solve_info *info)
{
    info->status = r->met ? IK_STATUS_CONVERGED : IK_STATUS_UNREACHABLE;
    info->iterations = 1;
    info->position_error =
        ik__limb_length(ik_vec3_add_scaled(r->to_target, aim, -w_len * g->length_unit));
    info->rotation_error =
        rot ? ik_vec3_length(ik_quat_to_expmap(ik_quat_mul(ik_quat_conjugate(reached), target_rot)))
            : 0;
}

// ---- the limb within its limits (docs/limb.md, "Limits")

// The reach clamped to the elbow range's band; true where that moves it beyond rounding.
static bool ik__limb_reach_limit(const ik_limb_prepared *g, ik__limb_reach *r)
{
    ik_real to = r->reach2 > g->elbow_reach2_max   ? g->elbow_reach2_max
                 : r->reach2 < g->elbow_reach2_min ? g->elbow_reach2_min
                                                   : r->reach2;
    bool moved;
    if (to == r->reach2)
        return false;
    moved = IK_FABS(IK_SQRT(to) - IK_SQRT(r->reach2)) >
            64 * IK_EPSILON * (g->upper_length + g->lower_length);
    r->reach2 = to;
    r->inv_len = 0; // (the line from w / |w|)
    return moved;
}

// The elbow angle for the reach within the elbow range, and the limb's shape at it: the
// unlimited angle, or the range's end (exactly) where rounding puts it beyond.
static ik_real ik__limb_bend_limited(const ik_limb_prepared *g, ik_real reach2, ik_real inv_len,
                                     ik_real current, ik__limb_shape *shape)
{
    bool bends = 2 * g->upper_length * g->lower_length * g->rg > 0;
    // (the branch's middle as the reference: the angle comes unwrapped, t0 + [0, pi])
    ik_real ref =
        bends ? (g->elbow_lo + g->elbow_hi) / 2 : ik__clamp(current, g->elbow_lo, g->elbow_hi);
    ik_real theta = ik__limb_bend(g, reach2, inv_len, ref, shape);
    if (theta < g->elbow_lo) {
        ik__limb_shape_at(g, g->elbow_half[0], g->elbow_half[1], 0, shape);
        return g->elbow_lo;
    }
    if (theta > g->elbow_hi) {
        ik__limb_shape_at(g, g->elbow_half[2], g->elbow_half[3], 0, shape);
        return g->elbow_hi;
    }
    return theta;
}

// The limb's rotations at a swivel offset delta from the requested one: the model-frame
// shoulder frame turned by delta about aim; the target orientation keeps the wrist on it.
typedef struct ik__limb_swivels {
    const ik_limb_limits *limits;
    ik_quat base_inv, frame, elbow_rot, target_rot, wrist; // wrist: position only, kept
    ik_vec3 aim;
    bool rot;
} ik__limb_swivels;

static void ik__limb_swivel_at(const ik__limb_swivels *s, ik_real delta, ik_quat *shoulder,
                               ik_quat *wrist)
{
    ik_real sh = delta != 0 ? IK_SIN(delta / 2) : 0;
    ik_quat turn = ik_quat_make(s->aim.x * sh, s->aim.y * sh, s->aim.z * sh, IK_COS(delta / 2));
    ik_quat frame = delta != 0 ? ik_quat_mul(turn, s->frame) : s->frame;
    *shoulder = ik_quat_normalize(ik_quat_mul(s->base_inv, frame));
    *wrist = s->rot ? ik_quat_normalize(ik_quat_mul(
                          ik_quat_conjugate(ik_quat_mul(frame, s->elbow_rot)), s->target_rot))
                    : s->wrist;
}

// Whether the shoulder and the wrist are within their limits at swivel offset delta.
static bool ik__limb_swivel_within(const ik__limb_swivels *s, ik_real delta)
{
    ik_quat shoulder, wrist;
    ik__limb_swivel_at(s, delta, &shoulder, &wrist);
    return ik_ball_limit_contains(&s->limits->shoulder, shoulder) &&
           (!s->rot || ik_ball_limit_contains(&s->limits->wrist, wrist));
}

// The angle between unit rotations a and b.
static ik_real ik__limb_angle_between(ik_quat a, ik_quat b)
{
    ik_quat d = ik_quat_mul(ik_quat_conjugate(a), b);
    return 2 * IK_ATAN2(IK_SQRT(d.x * d.x + d.y * d.y + d.z * d.z), IK_FABS(d.w));
}

// How far the shoulder and the wrist are outside their limits at delta (radians, summed).
static ik_real ik__limb_swivel_violation(const ik__limb_swivels *s, ik_real delta)
{
    ik_quat shoulder, wrist;
    ik_real v;
    ik__limb_swivel_at(s, delta, &shoulder, &wrist);
    v = ik__limb_angle_between(shoulder, ik_ball_limit_project(&s->limits->shoulder, shoulder));
    if (s->rot) {
        v += ik__limb_angle_between(wrist, ik_ball_limit_project(&s->limits->wrist, wrist));
    }
    return v;
}

// The boundary between out (outside the limits) and in (within), to 1024 epsilon, on in's side.
static ik_real ik__limb_swivel_bisect(const ik__limb_swivels *s, ik_real out, ik_real in)
{
    while (IK_FABS(in - out) > 1024 * IK_EPSILON) {
        ik_real mid = (out + in) / 2;
        if (ik__limb_swivel_within(s, mid))
            in = mid;
        else
            out = mid;
    }
    return in;
}

#define IK__LIMB_SWIVEL_STEPS 64 // the swivel search's samples round the circle

// The swivel offset of least violation near the sample best (golden-section search within a
// sample step each way); within (true) as soon as a point within the limits turns up, moved to
// the boundary toward the requested swivel (docs/limb.md, "Limits").
static bool ik__limb_swivel_least(const ik__limb_swivels *s, ik_real best, ik_real *delta)
{
    const ik_real h = 2 * IK_PI / IK__LIMB_SWIVEL_STEPS, ratio = IK_R(0.6180339887498949);
    ik_real a = best - h, b = best + h, x1 = b - ratio * (b - a), x2 = a + ratio * (b - a);
    ik_real f1 = ik__limb_swivel_violation(s, x1), f2 = ik__limb_swivel_violation(s, x2);
    int k;
    for (k = 0; k < 32 && f1 > 0 && f2 > 0; k++) {
        if (f1 <= f2) {
            b = x2, x2 = x1, f2 = f1;
            x1 = b - ratio * (b - a);
            f1 = ik__limb_swivel_violation(s, x1);
        } else {
            a = x1, x1 = x2, f1 = f2;
            x2 = a + ratio * (b - a);
            f2 = ik__limb_swivel_violation(s, x2);
        }
    }
    *delta = f1 <= f2 ? x1 : x2;
    if (!ik__limb_swivel_within(s, *delta))
        return false;
    // (the sample toward the request is outside: bisect to the boundary nearest it)
    *delta = ik__limb_swivel_bisect(s, best == 0 ? 0 : (best < 0 ? best + h : best - h), *delta);
    return true;
}

// The swivel offset nearest the requested one (0) at which the shoulder and the wrist are
// within their limits: samples outward both ways, then bisection to the boundary; none within:
// the least violating offset (false).
static bool ik__limb_swivel_search(const ik__limb_swivels *s, ik_real *delta)
{
    const ik_real h = 2 * IK_PI / IK__LIMB_SWIVEL_STEPS;
    ik_real best = 0, least = IK__REAL_MAX, v;
    int k, side;
    *delta = 0;
    if (ik__limb_swivel_within(s, 0))
        return true;
    for (k = 1; k <= IK__LIMB_SWIVEL_STEPS / 2; k++) {
        bool found = false;
        for (side = 1; side >= -1; side -= 2) {
            ik_real d = (ik_real)(side * k) * h, b;
            if (!ik__limb_swivel_within(s, d))
                continue;
            b = ik__limb_swivel_bisect(s, (ik_real)(side * (k - 1)) * h, d);
            if (!found || IK_FABS(b) < IK_FABS(*delta))
                *delta = b;
            found = true;
        }
        if (found)
            return true;
    }
    for (k = 1 - IK__LIMB_SWIVEL_STEPS / 2; k <= IK__LIMB_SWIVEL_STEPS / 2; k++) {
        v = ik__limb_swivel_violation(s, (ik_real)k * h);
        if (v < least)
            least = v, best = (ik_real)k * h;
    }
    return ik__limb_swivel_least(s, best, delta);
}

// The exponential map v [3] made within limit where its rounding put it a rounding error out:
// stretched or shrunk by a few epsilon, else projected (and stretched: a twist range ending at
// pi, docs/limb.md, "Limits"); true where it had to be projected.
static bool ik__limb_expmap_within(const ik_ball_limit *limit, ik_real *v)
{
    if (ik__expmap_stretch_within(limit, v))
        return false;
    ik__limb_log_near(
        ik_ball_limit_project(limit, ik_quat_from_expmap(ik_vec3_make(v[0], v[1], v[2]))), v);
    ik__expmap_stretch_within(limit, v);
    return true;
}

// q's ball joints within their limits to the exponential maps' rounding; true where one had to
// be projected (then *shoulder and *wrist become q's rotations).
static bool ik__limb_q_within(const ik_limb_limits *limits, ik_real *q, ik_quat *shoulder,
                              ik_quat *wrist)
{
    bool moved = ik__limb_expmap_within(&limits->shoulder, q);
    moved = ik__limb_expmap_within(&limits->wrist, q + 4) || moved;
    if (moved) {
        *shoulder = ik_quat_from_expmap(ik_vec3_make(q[0], q[1], q[2]));
        *wrist = ik_quat_from_expmap(ik_vec3_make(q[4], q[5], q[6]));
    }
    return moved;
}

// Whether a and b are the same to the bit.
static bool ik__limb_same_quat(ik_quat a, ik_quat b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w;
}

// The solve's report from the pose reached (forward kinematics of shoulder, shape and wrist).
static void ik__limb_report_limited(const ik_limb_prepared *g, const ik_limb_target *target,
                                    ik_quat shoulder, const ik__limb_shape *shape, ik_quat wrist,
                                    ik_status status, ik_solve_info *info)
{
    ik_quat upper = ik_quat_mul(g->base.rot, shoulder);
    ik_vec3 w = ik_vec3_scale(ik_vec3_add(g->elbow, shape->lower), g->length_unit);
    ik_quat reached = ik_quat_mul(upper, ik_quat_mul(shape->elbow_rot, wrist));
    info->status = status;
    info->iterations = 1;
    info->position_error = ik__limb_length(
        ik_vec3_sub(ik_vec3_add(g->base.pos, ik_quat_rotate(upper, w)), target->pos));
    info->rotation_error = target->use_rotation
                               ? ik_vec3_length(ik_quat_to_expmap(ik_quat_mul(
                                     ik_quat_conjugate(reached), ik__limb_quat_unit(target->rot))))
                               : 0;
}

// The swivel search within the limits, from the unlimited answer's frame: the rotations (within
// the limits) in *shoulder and *wrist; false where no swivel keeps both within.
static bool ik__limb_swivel_limited(ik__limb_swivels *s, ik_quat *shoulder, ik_quat *wrist)
{
    ik_real delta;
    bool within = ik__limb_swivel_search(s, &delta);
    ik__limb_swivel_at(s, delta, shoulder, wrist);
    if (!within) { // (contains() holds already where within)
        *shoulder = ik_ball_limit_project(&s->limits->shoulder, *shoulder);
        *wrist = ik_ball_limit_project(&s->limits->wrist, *wrist);
    }
    return within;
}

// ik_limb_solve_prepared() with limits (docs/limb.md, "Limits"): the elbow within its range,
// then the swivel nearest the requested one that keeps the shoulder and the wrist within theirs.
IK__NOINLINE static void ik__limb_solve_limited(const ik_limb_prepared *g,
                                                const ik_limb_target *target, ik_real band,
                                                ik_real soft, ik_real *q, ik_limb_pose *pose,
                                                ik_solve_info *info)
{
    ik_real scale = g->length_unit * (g->upper_length + g->lower_length), theta;
    ik__limb_reach reach = ik__limb_reach_for(g, target->pos, soft);
    ik__limb_shape shape, cur;
    ik__limb_swivels s;
    ik_quat shoulder, wrist, kept;
    ik_vec3 side;
    bool limited = ik__limb_reach_limit(g, &reach), within;
    theta = ik__limb_bend_limited(g, reach.reach2, reach.inv_len, q ? q[3] : pose->elbow, &shape);
    // the shoulder -> wrist direction and the elbow's side, as without limits
    if (reach.dist > 16 * IK_EPSILON * scale)
        s.aim = ik__limb_div(reach.to_target, reach.dist);
    else
        s.aim = ik_quat_rotate(ik__limb_current(g, q, pose, theta, &shape, &cur), cur.line);
    side = ik__limb_side(g, target, band, scale, q, pose, theta, &shape, s.aim);
    s.limits = g->limits;
    s.frame = ik_quat_normalize(ik__quat_from_frames(shape.line, shape.side, s.aim, side));
    s.base_inv = ik_quat_conjugate(g->base.rot);
    s.elbow_rot = shape.elbow_rot;
    s.rot = target->use_rotation;
    s.target_rot = s.rot ? ik__limb_quat_unit(target->rot) : ik_quat_identity();
    // position only: the current wrist, projected into its limit
    kept = s.rot ? ik_quat_identity()
                 : ik__limb_wrist(false, s.target_rot, s.frame, 1, s.elbow_rot, q, pose, true);
    s.wrist = s.rot ? kept : ik_ball_limit_project(&g->limits->wrist, kept);
    within = ik__limb_swivel_limited(&s, &shoulder, &wrist);
    if (!s.rot)
        wrist = s.wrist;
    ik__limb_write(shoulder, theta, wrist, s.rot || !ik__limb_same_quat(wrist, kept), q, pose);
    if (q && ik__limb_q_within(g->limits, q, &shoulder, &wrist)) {
        within = false; // (projected beyond rounding: the pose and the report from q)
        if (pose)
            pose->shoulder = shoulder, pose->wrist = wrist;
    }
    if (info)
        ik__limb_report_limited(g, target, shoulder, &shape, wrist,
                                !reach.met           ? IK_STATUS_UNREACHABLE
                                : limited || !within ? IK_STATUS_LIMITED
                                                     : IK_STATUS_CONVERGED,
                                info);
}

IKDEF ik_result ik_limb_solve_prepared(const ik_limb_prepared *g, const ik_limb_target *target,
                                       const ik_limb_opts *opts, ik_real *q, ik_limb_pose *out_pose,
                                       ik_solve_info *info)
{
    ik__limb_reach reach;
    ik__limb_shape shape, cur;
    ik_real band, soft, scale, theta, frame_norm;
    ik_vec3 aim, side;
    ik_quat frame, shoulder, wrist, target_rot;
    bool rot;
    ik_result checked;
    // (the options read before the checks: gcc then keeps the solve in one function)
    band = opts ? opts->pole_band : IK_R(0.01);
    soft = opts ? opts->softness : 0;
    checked = ik__limb_solve_check(g, target, opts, q, out_pose);
    if (checked != IK_OK)
        return checked;
    if (g->limits) {
        ik__limb_solve_limited(g, target, band, soft, q, out_pose, info);
        return IK_OK;
    }
    rot = target->use_rotation;
    scale = g->length_unit * (g->upper_length + g->lower_length); // the limb's length, model units

    // the reach, softened and clamped (in the limb's unit, l1 + l2 = 1)
    reach = ik__limb_reach_for(g, target->pos, soft);
    // the elbow angle for it, and the limb's shape in the shoulder frame
    theta = ik__limb_bend(g, reach.reach2, reach.inv_len, q ? q[3] : out_pose->elbow, &shape);

    // the shoulder -> wrist direction in the model frame
    if (reach.dist > 16 * IK_EPSILON * scale)
        aim = ik__limb_div(reach.to_target, reach.dist);
    else // target at the shoulder: keep the limb's current direction
        aim = ik_quat_rotate(ik__limb_current(g, q, out_pose, theta, &shape, &cur), cur.line);
    // the elbow's side in the model frame
    side = ik__limb_side(g, target, band, scale, q, out_pose, theta, &shape, aim);

    // shoulder: base * shoulder (= frame) maps (a_l, b_l, a_l x b_l) onto (aim, side, aim x
    // side); frame's normalization frame_norm is applied to the products below
    frame = ik__quat_from_frames(shape.line, shape.side, aim, side);
    frame_norm = 1 / IK_SQRT(ik_quat_dot(frame, frame));
    shoulder = ik__quat_scale(ik_quat_mul(ik_quat_conjugate(g->base.rot), frame), frame_norm);
    // wrist: what is left of the target orientation
    target_rot = rot ? ik__limb_quat_unit(target->rot) : ik_quat_identity();
    wrist = ik__limb_wrist(rot, target_rot, frame, frame_norm, shape.elbow_rot, q, out_pose,
                           out_pose || info);

    ik__limb_write(shoulder, theta, wrist, rot, q, out_pose);
    if (info)
        ik__limb_report(
            g, &reach, aim, shape.w_len,
            ik_quat_mul(ik__quat_scale(frame, frame_norm), ik_quat_mul(shape.elbow_rot, wrist)),
            rot, target_rot, info);
    return IK_OK;
}

IKDEF ik_result ik_limb_swivel(const ik_limb *limb, const ik_real *q, ik_real *out_swivel)
{
    ik_limb_prepared g;
    ik__limb_shape shape;
    ik_quat shoulder;
    ik_vec3 line, side, ref;
    ik_result r = ik_limb_prepare(limb, &g);
    if (r != IK_OK)
        return r;
    if (!q || !out_swivel)
        return IK_ERR_NULL_ARG;
    if (!ik__limb_state_valid(q, NULL))
        return IK_ERR_BAD_ARG;
    shoulder = ik__limb_current(&g, q, NULL, 0, NULL, &shape);
    line = ik_quat_rotate(shoulder, shape.line);
    side = ik__perp_unit(ik_quat_rotate(shoulder, shape.side), line);
    ref = ik__perp_unit(g.swivel_ref, line);
    if (ik_vec3_length2(ref) == 0 || ik_vec3_length2(side) == 0)
        *out_swivel = 0;
    else
        *out_swivel = IK_ATAN2(ik_vec3_dot(ik_vec3_cross(ref, side), line), ik_vec3_dot(ref, side));
    *out_swivel = *out_swivel <= -IK_PI ? IK_PI : *out_swivel;
    return IK_OK;
}

// ---- humanoid limbs (docs/limits.md, "A humanoid arm and leg")

// A left limb's directions (right limbs: their mirror images in x = 0): the bone, the hinge,
// swivel_ref, then the twist axis and x axis of the shoulder's (hip's) and the wrist's (ankle's)
// limits; and its limits in degrees: the elbow's upper end, then swing_x, swing_y, twist_lo,
// twist_hi of the shoulder (hip) and of the wrist (ankle).
typedef struct ik__humanoid_spec {
    ik_real dirs[7][3];
    ik_real degrees[9];
} ik__humanoid_spec;

static const ik__humanoid_spec ik__humanoid_specs[2] = {
    { { { 1, 0, 0 },
        { 0, -1, 0 },
        { 0, -1, 0 },
        { 1, 0, 0 },
        { 0, 1, 0 },
        { 1, 0, 0 },
        { 0, 1, 0 } },
      { 145, 100, 100, -90, 70, 80, 30, -80, 80 } }, // arm
    { { { 0, -1, 0 },
        { 1, 0, 0 },
        { 0, 0, 1 },
        { 0, -1, 0 },
        { 0, 0, 1 },
        { 0, 0, 1 },
        { 0, 1, 0 } },
      { 150, 120, 45, -45, 45, 50, 20, -35, 15 } }, // leg
};

// Direction k of spec, mirrored in x = 0 for a right limb (the hinge, an axis, also reversed).
static ik_vec3 ik__humanoid_dir(const ik__humanoid_spec *spec, int k, bool right)
{
    ik_vec3 v = ik_vec3_make(spec->dirs[k][0], spec->dirs[k][1], spec->dirs[k][2]);
    if (right)
        v.x = -v.x;
    return right && k == 1 ? ik_vec3_scale(v, -1) : v;
}

// The ball limit of spec's joint j (0: shoulder or hip, 1: wrist or ankle), mirrored for a right
// limb: the twist range reversed, the cone the same.
static ik_ball_limit ik__humanoid_ball(const ik__humanoid_spec *spec, int j, bool right)
{
    const ik_real *deg = spec->degrees + 1 + 4 * j, rad = IK_PI / 180;
    ik_real lo = deg[2] * rad, hi = deg[3] * rad;
    ik_ball_limit limit;
    ik_ball_limit_make(ik__humanoid_dir(spec, 3 + 2 * j, right),
                       ik__humanoid_dir(spec, 4 + 2 * j, right), deg[0] * rad, deg[1] * rad,
                       right ? -hi : lo, right ? -lo : hi, &limit);
    return limit;
}

IKDEF ik_result ik_limb_humanoid(ik_humanoid_limb which, ik_real upper_length, ik_real lower_length,
                                 ik_limb *out_limb, ik_limb_limits *out_limits)
{
    const ik__humanoid_spec *spec;
    bool right = which == IK_HUMANOID_RIGHT_ARM || which == IK_HUMANOID_RIGHT_LEG;
    ik_limb limb;
    if (!out_limb || !out_limits)
        return IK_ERR_NULL_ARG;
    if ((int)which < IK_HUMANOID_LEFT_ARM || (int)which > IK_HUMANOID_RIGHT_LEG ||
        !ik__bounded(upper_length) || !ik__bounded(lower_length) || upper_length < 0 ||
        lower_length < 0)
        return IK_ERR_BAD_ARG;
    spec = &ik__humanoid_specs[which >= IK_HUMANOID_LEFT_LEG];
    limb.base = ik_xform_identity();
    limb.upper_dir = limb.lower_dir = ik__humanoid_dir(spec, 0, right);
    limb.upper_length = upper_length;
    limb.lower_length = lower_length;
    limb.hinge_axis = ik__humanoid_dir(spec, 1, right);
    limb.swivel_ref = ik__humanoid_dir(spec, 2, right);
    limb.limits = out_limits;
    out_limits->elbow_lo = 0;
    out_limits->elbow_hi = spec->degrees[0] * (IK_PI / 180);
    out_limits->shoulder = ik__humanoid_ball(spec, 0, right);
    out_limits->wrist = ik__humanoid_ball(spec, 1, right);
    *out_limb = limb;
    return IK_OK;
}

// ---- implementation: robot arm -----------------------------------------------------------------

#define IK__ARM_VALID 0x1ca4a
#ifdef IK_USE_FLOAT
#define IK__ARM_TOL IK_R(1e-5)
#else
#define IK__ARM_TOL IK_R(1e-6)
#endif

IKDEF ik_arm_opts ik_default_arm_opts(void)
{
    ik_arm_opts o;
    o.jacobian = ik_default_jacobian_opts();
    o.jacobian.max_iterations = 12;
    o.jacobian.max_joint_step = 2;
    o.jacobian.tolerance = IK__ARM_TOL;
    o.jacobian.rotation_tolerance = IK__ARM_TOL;
    o.max_attempts = 100;
    o.probe_iterations = 6;
    o.probe_error = IK_R(0.1);
    o.random_seed = 1;
    o.stop = NULL;
    o.stop_user = NULL;
    o._valid = IK__ARM_VALID;
    return o;
}

// x, or if outside [lo, hi] x moved by whole turns to within half a turn of the middle.
static inline ik_real ik__angle_into(ik_real x, ik_real lo, ik_real hi)
{
    return x < lo || x > hi ? ik__angle_near(x, lo / 2 + hi / 2) : x;
}

// ik__angle_into() into *out; false if that is not within [lo, hi].
static bool ik__fit_angle(ik_real x, ik_real lo, ik_real hi, ik_real *out)
{
    *out = ik__angle_into(x, lo, hi);
    return *out >= lo && *out <= hi;
}

// ---- arm: the closed form for planar chains and position targets (docs/jacobian.md) ------------

// The planar two-joint step into w->dq from the Jacobian at w->q (row 5: the signs) and e; false
// (dq untouched) if no split fits.
static bool ik__planar_step(const ik__jac_work *w, const ik_real *e)
{
    const ik_real *jac = w->jac, *sign = w->jac + 5 * w->dof, *q = w->q;
    ik_real vbx, vby, tx, ty, d2, best = IK_INFINITY, cn = 0, ux = 0, uy = 0, vx = 0, vy = 0,
                                  ab = 0;
    int dof = w->dof, b, c, k = -1, side;
    for (b = 0; b < dof && w->sw[b] == 0; b++)
        ;
    if (b >= dof || !(IK_FABS(e[2]) <= w->o->tolerance)) // (off the plane: out of reach)
        return false;
    vbx = sign[b] * jac[dof + b];
    vby = -sign[b] * jac[b];
    tx = e[0] + vbx;
    ty = e[1] + vby;
    d2 = tx * tx + ty * ty;
    for (c = b + 1; c < dof; c++) {
        ik_real x = sign[c] * jac[dof + c], y = -sign[c] * jac[c], ax = vbx - x, ay = vby - y;
        ik_real a2 = ax * ax + ay * ay, b2 = x * x + y * y, r2 = a2 * b2, n = d2 - a2 - b2;
        ik_real change = n - 2 * (ax * x + ay * y), r = IK_SQRT(r2);
        // (frozen, or a part of no length: no split here)
        if (w->sw[c] == 0 ||
            !(r2 > IK__TINY2 && IK_FABS(n) <= 2 * r + 16 * IK_EPSILON * (d2 + a2 + b2)))
            continue;
        change = change * change / r2;
        if (change < best)
            best = change, k = c, cn = n, ab = r2, ux = ax, uy = ay, vx = x, vy = y;
    }
    if (k >= 0) {
        ab = IK_SQRT(ab); // (r again: cheaper than keeping it in the loop)
        cn = ik__clamp(cn / (2 * ab), -1, 1);
    }
    for (side = 0; side < 2 && k >= 0; side++) {
        ik_real cp = (ux * vx + uy * vy) / ab, sp = (ux * vy - uy * vx) / ab;
        ik_real sn = IK_SQRT(1 - cn * cn > 0 ? 1 - cn * cn : 0), cb, sb, wx, wy, qb, qk;
        if ((sp < 0) != (side == 1)) // phi's side first
            sn = -sn;
        cb = cn * cp + sn * sp; // beta = gamma - phi
        sb = sn * cp - cn * sp;
        wx = ux + (cb * vx - sb * vy);
        wy = uy + (sb * vx + cb * vy);
        if (ik__fit_angle(q[b] + sign[b] * IK_ATAN2(wx * ty - wy * tx, wx * tx + wy * ty), w->lo[b],
                          w->hi[b], &qb) &&
            ik__fit_angle(q[k] + sign[k] * IK_ATAN2(sb, cb), w->lo[k], w->hi[k], &qk)) {
            for (c = 0; c < dof; c++)
                w->dq[c] = 0;
            w->dq[b] = qb - q[b];
            w->dq[k] = qk - q[k];
            return true;
        }
    }
    return false;
}

// The best state, turning flags, the attempts' work, then ik_jacobian_solve()'s scratch.
static size_t ik__arm_scratch_size(int dof, size_t table)
{
    return ((size_t)dof * 2 + 2 * (ik__jacobian_reals(dof, table) + 1)) * sizeof(ik_real);
}

IKDEF size_t ik_arm_scratch_size(const ik_chain *chain)
{
    int dof = ik_chain_dof(chain);
    return dof < 0 ? 0 : ik__arm_scratch_size(dof, ik__table_reals(chain));
}

// splitmix64 (Steele, Lea and Flood 2014): uniform in [0, 1).
static ik_real ik__random01(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (ik_real)((double)(z >> 11) * (1.0 / 9007199254740992.0));
}

// ---- arm: helpers of the closed forms (docs/closed-forms.md) -----------------------------------

// Rot(b, angle) v for a unit b, given the angle's cosine c and sine s (Rodrigues).
static ik_vec3 ik__rotate(ik_vec3 b, ik_real c, ik_real s, ik_vec3 v)
{
    return ik_vec3_add(ik_vec3_add(ik_vec3_scale(v, c), ik_vec3_scale(ik_vec3_cross(b, v), s)),
                       ik_vec3_scale(b, ik_vec3_dot(b, v) * (1 - c)));
}

// The point where the lines (p[k], b[k]) meet to within tol, into x; false if they do not.
static bool ik__axes_meet(const ik_vec3 *p, const ik_vec3 *b, ik_real tol, ik_vec3 *x)
{
    ik_vec3 n = ik_vec3_cross(b[0], b[1]);
    ik_real n2 = ik_vec3_dot(n, n), t;
    int k;
    if (!(n2 > IK_R(1e-6)))
        return false;
    t = ik_vec3_dot(ik_vec3_cross(ik_vec3_sub(p[1], p[0]), b[1]), n) / n2;
    *x = ik_vec3_add(p[0], ik_vec3_scale(b[0], t));
    for (k = 0; k < 3; k++)
        if (!(ik_vec3_length(ik_vec3_cross(ik_vec3_sub(*x, p[k]), b[k])) <= tol))
            return false;
    return true;
}

// A rotation within a ball's limit from a uniform random one u: its twist's and its swing's
// tan(angle / 4) coordinates scaled into the range and the cone (docs/limits.md).
static ik_quat ik__ball_limit_random(const ik_ball_limit *limit, ik_quat u)
{
    ik_real twist = limit->twist[0] + (limit->twist[1] - limit->twist[0]) * (u.x * u.x + u.y * u.y);
    ik_real px = u.z * limit->cone[0], py = u.w * limit->cone[1], m2 = px * px + py * py;
    ik_real k = 1 / (1 + m2), swing[3], half[2];
    swing[0] = 2 * px * k, swing[1] = 2 * py * k, swing[2] = (1 - m2) * k;
    half[0] = IK_COS(twist / 2), half[1] = IK_SIN(twist / 2);
    return ik__limit_join(limit, swing, half, 1);
}

// A random state within the limits; frozen joints keep start's (the caller's q).
static void ik__arm_random_state(const ik_chain *chain, const ik_real *start, ik_real reach,
                                 unsigned long long *rng, ik_real *out)
{
    int jt, c = 0, k;
    for (jt = 0; jt < chain->joint_count; jt++) {
        const ik_joint *j = &chain->joints[jt];
        if (!(j->weight > 0)) { // frozen: as in attempt 1
            for (k = 0; k < ik_joint_type_dof(j->type); k++, c++)
                out[c] = j->type == IK_JOINT_BALL ? start[c] : ik__clamp(start[c], j->lo, j->hi);
        } else if (j->type == IK_JOINT_BALL) {
            // Shoemake's uniform random rotation, as an exponential map
            ik_real u1 = ik__random01(rng), u2 = 2 * IK_PI * ik__random01(rng),
                    u3 = 2 * IK_PI * ik__random01(rng), a = IK_SQRT(1 - u1), b = IK_SQRT(u1);
            ik_quat r =
                ik_quat_make(a * IK_SIN(u2), a * IK_COS(u2), b * IK_SIN(u3), b * IK_COS(u3));
            ik_vec3 v = ik_quat_to_expmap(j->limit ? ik__ball_limit_random(j->limit, r) : r);
            out[c] = v.x, out[c + 1] = v.y, out[c + 2] = v.z;
            c += 3;
        } else if (j->type != IK_JOINT_FIXED) {
            ik_real span = j->type == IK_JOINT_REVOLUTE ? 2 * IK_PI : 2 * reach;
            ik_real lo = j->lo, hi = j->hi;
            if (!ik__finite(lo) && !ik__finite(hi))
                lo = (j->type == IK_JOINT_REVOLUTE ? 0 : start[c]) - span / 2, hi = lo + span;
            else if (!ik__finite(lo))
                lo = hi - span;
            else if (!ik__finite(hi))
                hi = lo + span;
            out[c] = ik__clamp(lo + (hi - lo) * ik__random01(rng), j->lo, j->hi);
            c++;
        }
    }
}

static bool ik__arm_opts_valid(const ik_arm_opts *o)
{
    return o->_valid == IK__ARM_VALID && o->max_attempts >= 1 && o->probe_iterations >= 0 &&
           ik__bounded(o->probe_error) && o->probe_error >= 0 &&
           ik__jacobian_opts_valid(&o->jacobian);
}

// The attempts' work after keep (dof reals): the Jacobian solver's, turning joints, the arm's
// policies; returns ik_jacobian_solve()'s scratch, which follows.
static ik_real *ik__arm_setup(ik__jac_work *w, const ik_chain *chain, const ik_target *target,
                              const ik_arm_opts *o, int dof, size_t table, ik_real *keep,
                              const ik_real *q_io)
{
    int c, jt, t;
    ik__jacobian_init(w, chain, target, &o->jacobian, dof, keep + 2 * dof, q_io);
    w->turn = keep + dof;
    for (c = 0, jt = 0; jt < chain->joint_count; jt++) {
        const ik_joint *j = &chain->joints[jt];
        for (t = 0; t < ik_joint_type_dof(j->type); t++, c++)
            w->turn[c] = (ik_real)(j->type == IK_JOINT_REVOLUTE && j->hi - j->lo >= 2 * IK_PI &&
                                   ik__finite(j->hi - j->lo) &&
                                   IK_FABS(j->lo / 2 + j->hi / 2) <= IK_MAX_MAGNITUDE);
    }
    // the arm's policies: LM damping, no pins carried, 10 halvings however small the step, no
    // nudges, the probe
    ik__policy arm = { true, true, false, 10, true, 0, -1, o->probe_error * w->scale, 0, false };
    arm.planar = w->table.planar && !target->use_rotation && w->within_reach;
    arm.lw = o->jacobian.orientation_weight > 0 ? w->scale / (ik_real)ik__movable_joints(chain)
                                                : w->ow; // metres per radian in the cost
    w->policy = arm;
    return keep + 2 * dof + ik__jacobian_reals(dof, table);
}

static bool ik__closed_arm_start(const ik_closed_form *cf, const ik_target *target, ik_real *q);
static bool ik__closed_six(const ik_chain *chain);
static const char *ik__closed_form_of(const ik_chain *chain, ik_closed_form *cf);

// Whether w's chain has a closed form (into cf) for a pose target without a rest pose, every
// joint free (weight > 0).
static bool ik__arm_closed_form(const ik__jac_work *w, const ik_target *target,
                                const ik_arm_opts *o, ik_closed_form *cf)
{
    int i;
    if (!IK__FAST || !target->use_rotation || o->jacobian.rest)
        return false;
    if (!ik__closed_six(w->chain))
        return false;
    for (i = 0; i < w->chain->joint_count; i++)
        if (w->chain->joints[i].type != IK_JOINT_FIXED && !(w->chain->joints[i].weight > 0))
            return false;
    ik__closed_form_of(w->chain, cf); // (the chain is valid: ik_arm_solve() checked it)
    return cf->kind != IK_CLOSED_FORM_NONE;
}

// Attempt a's start into w->q: attempt 1 from q_io within the limits (w->q; the closed form's
// answer nearest it with cf), the others from random states. false if the caller stops.
static bool ik__arm_start(ik__jac_work *w, const ik_arm_opts *o, int a, const ik_closed_form *cf,
                          const ik_target *target, const ik_real *q_io, unsigned long long *rng)
{
    if (a == 0 && cf)
        ik__closed_arm_start(cf, target, w->q);
    if (a == 0)
        return true;
    if (o->stop && o->stop(o->stop_user))
        return false;
    ik__arm_random_state(w->chain, q_io, w->scale, rng, w->q);
    return true;
}

// Attempt a from w->q (the arm's policies, else ik_jacobian_solve()); false on a breakdown.
static bool ik__arm_try(ik__jac_work *w, const ik_arm_opts *o, int a, ik_real *jscratch,
                        size_t jsize, const ik_target *target, ik_solve_info *att)
{
    const ik_jacobian_opts *jo = &o->jacobian; // (the arm's policies: DLS, exponential maps)
    if (jo->method != IK_JACOBIAN_DLS || jo->rest || jo->ball_param != IK_BALL_EXPMAP)
        return ik_jacobian_solve(w->chain, target, &o->jacobian, w->q, jscratch, jsize, att) ==
               IK_OK;
    w->policy.probe_it = a > 0 && o->probe_iterations > 0 ? o->probe_iterations : -1;
    ik__jacobian_start(w);
    return ik__iterate(w, att);
}

IKDEF ik_result ik_arm_solve(const ik_chain *chain, const ik_target *target_in,
                             const ik_arm_opts *opts, ik_real *q_io, void *scratch,
                             size_t scratch_size, ik_solve_info *info)
{
    ik_arm_opts o = opts ? *opts : ik_default_arm_opts();
    ik_target target;
    ik_solve_info att, best = { IK_STATUS_MAX_ITERATIONS, 0, 0, 0 };
    ik__jac_work w;
    ik_closed_form cf;
    ik_real *keep, *jscratch, best_cost = 0;
    unsigned long long rng;
    size_t jsize, table;
    int dof, a, iterations = 0;
    bool closed_form;
    bool valid = false;
    ik_result r = ik__chain_state_validate(chain, q_io, &dof);
    if (r != IK_OK)
        return r;
    r = ik__solver_validate(chain, dof, q_io, target_in, -1, ik__arm_opts_valid(&o),
                            o.jacobian.rest, scratch, scratch_size, 0, info, &target);
    if (r != IK_OK)
        return r;
    table = ik__table_reals(chain);
    keep =
        ik__scratch_reals(scratch, scratch_size, (size_t)dof * 2 + ik__jacobian_reals(dof, table));
    if (!keep || scratch_size < ik__arm_scratch_size(dof, table))
        return IK_ERR_SCRATCH_TOO_SMALL;
    // the Jacobian solver's scratch follows the arm's; what is left of the buffer is its
    jscratch = ik__arm_setup(&w, chain, &target, &o, dof, table, keep, q_io);
    jsize = scratch_size - (size_t)((char *)jscratch - (char *)scratch);
    rng = o.random_seed;
    // an arm with a closed form (pose target, no rest pose): attempt 1 from its answer nearest q
    closed_form = ik__arm_closed_form(&w, &target, &o, &cf);
    for (a = 0; a < o.max_attempts &&
                ik__arm_start(&w, &o, a, closed_form ? &cf : NULL, &target, q_io, &rng);
         a++) {
        ik_real cost;
        if (!ik__arm_try(&w, &o, a, jscratch, jsize, &target, &att))
            continue; // a numerical breakdown: try the next start
        iterations += att.iterations;
        cost = att.position_error + w.policy.lw * att.rotation_error;
        if (!valid || cost < best_cost || att.status == IK_STATUS_CONVERGED) {
            best = att;
            best_cost = cost;
            valid = true;
            memcpy(keep, w.q, (size_t)dof * sizeof(ik_real));
        }
        // beyond reach no restart can converge (the closest pose is the stretched chain)
        if (att.status == IK_STATUS_CONVERGED || att.status == IK_STATUS_UNREACHABLE)
            break;
    }
    if (!valid)
        return IK_ERR_NUMERIC;
    memcpy(q_io, keep, (size_t)dof * sizeof(ik_real));
    best.iterations = iterations;
    if (info)
        *info = best;
    return IK_OK;
}

// ---- implementation: closed forms (docs/closed-forms.md) ---------------------------------------

// One closed-form answer before its listing: the angles (-pi..pi) and ik_closed_flag bits.
typedef struct ik__closed_answer {
    ik_real q[7];
    int flags;
    int branch; // SRS: 4 e + 2 s + w (see ik_closed_solution.branch)
} ik__closed_answer;

// The component of v across the unit axis h.
static ik_vec3 ik__across(ik_vec3 h, ik_vec3 v)
{
    return ik_vec3_sub(v, ik_vec3_scale(h, ik_vec3_dot(h, v)));
}

// Whether unit vectors a and b are parallel or opposite (to 64 epsilon).
static bool ik__closed_parallel(ik_vec3 a, ik_vec3 b)
{
    return ik_vec3_length(ik_vec3_cross(a, b)) <= 64 * IK_EPSILON;
}

// atan2(y, x) by ik__atan01() (within a few ulps; 0 for 0, 0).
static ik_real ik__closed_atan2(ik_real y, ik_real x)
{
    ik_real ax = IK_FABS(x), ay = IK_FABS(y), a;
    if (!(ax > 0 || ay > 0))
        return 0;
    a = ay <= ax ? ik__atan01(ay / ax) : IK_PI / 2 - ik__atan01(ax / ay);
    a = x < 0 ? IK_PI - a : a;
    return y < 0 ? -a : a;
}

// The angle atan2(y, x), its cosine and sine into cs (1, 0 for 0, 0).
static ik_real ik__closed_angle(ik_real x, ik_real y, ik_real *cs)
{
    ik_real n = IK_SQRT(x * x + y * y);
    cs[0] = n > 0 ? x / n : 1;
    cs[1] = n > 0 ? y / n : 0;
    return ik__closed_atan2(y, x);
}

// The angle turning u toward v about the unit axis h, its cosine and sine into cs (1, 0 if
// either has no part across h).
static ik_real ik__closed_turn(ik_vec3 h, ik_vec3 u, ik_vec3 v, ik_real *cs)
{
    ik_vec3 uu = ik__across(h, u), vv = ik__across(h, v);
    return ik__closed_angle(ik_vec3_dot(uu, vv), ik_vec3_dot(h, ik_vec3_cross(uu, vv)), cs);
}

// Below this sine an angle is free at a singular pose (taken from near_state): the rotation
// error of that choice stays within the accuracy promised (docs/closed-forms.md, "Accuracy").
#ifdef IK_USE_FLOAT
#define IK__CLOSED_FREE IK_R(1e-5)
#else
#define IK__CLOSED_FREE IK_R(2e-13)
#endif

// The answers of a cos(t) + b sin(t) = c (-pi..pi) into t, their cosines and sines into
// cs[2 k], cs[2 k + 1]: 2, or 1 where they meet (|c| >= |(a, b)|, by up to 64 epsilon of scale),
// or 0 beyond; any t (t = ref) where a and b vanish (IK__CLOSED_FREE of scale) and c does.
// *singular: within 64 epsilon of meeting, or |(a, b)| within sqrt(epsilon) of scale
// (docs/closed-forms.md, "One angle").
static int ik__closed_trig(ik_real a, ik_real b, ik_real c, ik_real scale, ik_real ref, ik_real *t,
                           ik_real *cs, int *singular)
{
    ik_real r2 = a * a + b * b, r = IK_SQRT(r2), slack = 64 * IK_EPSILON * scale, s;
    int k, n;
    *singular = !(r > IK_SQRT(IK_EPSILON) * scale);
    if (!(r > IK__CLOSED_FREE * scale)) { // (no term depends on t, to rounding)
        t[0] = ref, cs[0] = IK_COS(ref), cs[1] = IK_SIN(ref);
        return IK_FABS(c) <= IK__CLOSED_FREE * scale ? 1 : 0;
    }
    if (!(IK_FABS(c) <= r + slack))
        return 0;
    *singular |= IK_FABS(c) >= r - slack; // (the two answers meet, or nearly)
    c = ik__clamp(c, -r, r);              // (beyond by rounding: one answer)
    s = IK_SQRT((r - c) * (r + c));
    n = s > 0 ? 2 : 1;
    for (k = 0; k < n; k++) { // t = atan2(b, a) +- acos(c / r)
        ik_real sk = k ? -s : s;
        cs[2 * k] = (a * c - b * sk) / r2;
        cs[2 * k + 1] = (b * c + a * sk) / r2;
        t[k] = ik__closed_atan2(cs[2 * k + 1], cs[2 * k]);
    }
    return n;
}

// The angles t with d . Rot(k, t) v = c (k unit), as ik__closed_trig(); extent: the size of
// the coordinates d was computed from (their rounding counts as d's).
static int ik__closed_plane(ik_vec3 k, ik_vec3 v, ik_vec3 d, ik_real c, ik_real extent, ik_real ref,
                            ik_real *t, ik_real *cs, int *singular)
{
    ik_real kv = ik_vec3_dot(k, v), kd = ik_vec3_dot(k, d);
    ik_real scale = ik_vec3_length(v) * (ik_vec3_length(d) + extent) + IK_FABS(c);
    return ik__closed_trig(ik_vec3_dot(d, v) - kv * kd, ik_vec3_dot(d, ik_vec3_cross(k, v)),
                           c - kv * kd, scale, ref, t, cs, singular);
}

// Whether the chain's joints are six or seven revolute ones and fixed ones (before it is
// validated: a cheap refusal of other chains).
static bool ik__closed_six(const ik_chain *chain)
{
    int i, k = 0;
    if (!chain->joints || chain->joint_count < 6 || chain->joint_count > IK_MAX_JOINTS)
        return false;
    for (i = 0; i < chain->joint_count && k <= 7; i++)
        if (chain->joints[i].type != IK_JOINT_FIXED)
            k += chain->joints[i].type == IK_JOINT_REVOLUTE ? 1 : 8;
    return k == 6 || k == 7;
}

// The revolute axes, points on them, limits and the effector at q = 0 into cf; false if the
// chain is not six or seven revolute joints and fixed ones.
static bool ik__closed_geometry(const ik_chain *chain, ik_closed_form *cf)
{
    ik_xform pose = ik_xform_identity();
    int i, k = 0;
    for (i = 0; i < chain->joint_count; i++) {
        const ik_joint *j = &chain->joints[i];
        if (j->type != IK_JOINT_FIXED && (j->type != IK_JOINT_REVOLUTE || k == 7))
            return false;
        pose = ik_xform_mul(pose, j->origin);
        cf->reach += ik_vec3_length(j->origin.pos);
        if (j->type == IK_JOINT_FIXED)
            continue;
        cf->axis[k] = ik_vec3_normalize(ik_xform_apply_direction(pose, j->axis));
        cf->point[k] = pose.pos;
        cf->lo[k] = j->lo, cf->hi[k] = j->hi;
        k++;
    }
    cf->home = ik_xform_mul(pose, chain->tip);
    cf->reach += ik_vec3_length(chain->tip.pos);
    cf->joint_count = k;
    return k == 6 || k == 7;
}

// cf's kind (spherical wrist or three parallel axes), flags and across; the class's name.
static const char *ik__closed_accept(ik_closed_form *cf, bool wrist)
{
    const ik_vec3 *h = cf->axis;
    cf->kind = wrist ? IK_CLOSED_FORM_SPHERICAL_WRIST : IK_CLOSED_FORM_THREE_PARALLEL;
    cf->ortho_wrist = IK_FABS(ik_vec3_dot(h[3], h[4])) <= 64 * IK_EPSILON &&
                      IK_FABS(ik_vec3_dot(h[4], h[5])) <= 64 * IK_EPSILON;
    cf->ortho_parallel =
        wrist && cf->ortho_wrist && IK_FABS(ik_vec3_dot(h[0], h[1])) <= 64 * IK_EPSILON;
    cf->across = ik_vec3_any_perpendicular(wrist ? h[5] : h[1]);
    ik__closed_turn(h[4], h[3], h[5], cf->wrist_zero);
    if (!wrist)
        return "three parallel axes (2, 3, 4), axes 5 and 6 meet";
    return cf->ortho_parallel ? "a spherical wrist, ortho-parallel"
                              : "a spherical wrist, axes 2 and 3 parallel";
}

// The kind of cf's geometry into cf (centre, across, flags); the reason (docs/closed-forms.md,
// "Which arms").
static const char *ik__closed_classify(ik_closed_form *cf)
{
    const ik_vec3 *h = cf->axis, *p = cf->point;
    ik_vec3 pts[3] = { p[4], p[5], p[5] }, axes[3] = { h[4], h[5], h[5] }, elbow;
    ik_real tol = 64 * IK_EPSILON * cf->reach;
    bool wrist = ik__axes_meet(p + 3, h + 3, tol, &cf->centre) && !ik__closed_parallel(h[4], h[5]);
    bool two = ik__closed_parallel(h[1], h[2]), three = two && ik__closed_parallel(h[1], h[3]);
    if (!wrist && !three)
        return "no spherical wrist (axes 4, 5, 6 do not meet in one point) and axes 2, 3, 4 are "
               "not parallel";
    if (!two)
        return "a spherical wrist, but axes 2 and 3 are not parallel (the general Pieper case is "
               "not solved)";
    if (!wrist && !ik__axes_meet(pts, axes, tol, &cf->centre))
        return "axes 2, 3 and 4 are parallel, but axes 5 and 6 do not meet";
    if (ik__closed_parallel(h[0], h[1]))
        return "axes 1 and 2 are parallel";
    if (!wrist && ik__closed_parallel(h[1], h[4]))
        return "axes 2 and 5 are parallel";
    elbow = wrist ? cf->centre : p[3];
    if (!(ik_vec3_length(ik__across(h[1], ik_vec3_sub(p[2], p[1]))) > tol) ||
        !(ik_vec3_length(ik__across(h[1], ik_vec3_sub(elbow, p[2]))) > tol))
        return "a link of the elbow has no length across axes 2 and 3";
    return ik__closed_accept(cf, wrist);
}

// Whether the three axes h[0..2] through p[0..2] meet in one point (into *x) with the middle one
// parallel to neither other.
static bool ik__closed_triple_meets(const ik_vec3 *p, const ik_vec3 *h, ik_real tol, ik_vec3 *x)
{
    return ik__axes_meet(p, h, tol, x) && !ik__closed_parallel(h[0], h[1]) &&
           !ik__closed_parallel(h[1], h[2]);
}

// The shoulder's or wrist's constants: across its last axis h[2], whether ortho and its zero.
static void ik__closed_triple_consts(const ik_vec3 *h, ik_vec3 *across, bool *ortho, ik_real *zero)
{
    *across = ik_vec3_any_perpendicular(h[2]);
    *ortho = IK_FABS(ik_vec3_dot(h[0], h[1])) <= 64 * IK_EPSILON &&
             IK_FABS(ik_vec3_dot(h[1], h[2])) <= 64 * IK_EPSILON;
    ik__closed_turn(h[1], h[0], h[2], zero);
}

// An SRS arm's kind into cf (shoulder, elbow, centre, the triples' constants); the reason
// (docs/closed-forms.md, "Which arms").
static const char *ik__closed_classify_srs(ik_closed_form *cf)
{
    const ik_vec3 *h = cf->axis, *p = cf->point;
    ik_real tol = 64 * IK_EPSILON * cf->reach;
    if (!ik__closed_triple_meets(p, h, tol, &cf->shoulder))
        return "seven joints, but axes 1, 2, 3 do not meet in one point (or 2 is parallel to 1 "
               "or 3)";
    if (!ik__closed_triple_meets(p + 4, h + 4, tol, &cf->centre))
        return "seven joints, but axes 5, 6, 7 do not meet in one point (or 6 is parallel to 5 "
               "or 7)";
    if (!(ik_vec3_length(ik__across(h[3], ik_vec3_sub(cf->shoulder, p[3]))) > tol) ||
        !(ik_vec3_length(ik__across(h[3], ik_vec3_sub(cf->centre, p[3]))) > tol))
        return "seven joints, but the elbow (axis 4) passes through the shoulder or the wrist";
    cf->elbow =
        ik_vec3_add(p[3], ik_vec3_scale(h[3], ik_vec3_dot(h[3], ik_vec3_sub(cf->shoulder, p[3]))));
    ik__closed_triple_consts(h, &cf->shoulder_across, &cf->ortho_shoulder, cf->shoulder_zero);
    ik__closed_triple_consts(h + 4, &cf->across, &cf->ortho_wrist, cf->wrist_zero);
    cf->kind = IK_CLOSED_FORM_SRS;
    return "seven joints: a spherical shoulder and wrist (SRS)";
}

// A valid chain's closed form into cf (kind IK_CLOSED_FORM_NONE if none); the reason.
static const char *ik__closed_form_of(const ik_chain *chain, ik_closed_form *cf)
{
    memset(cf, 0, sizeof *cf);
    cf->kind = IK_CLOSED_FORM_NONE;
    if (!ik__closed_geometry(chain, cf))
        return "not six or seven revolute joints (fixed joints aside)";
    return cf->joint_count == 7 ? ik__closed_classify_srs(cf) : ik__closed_classify(cf);
}

IKDEF ik_closed_form_kind ik_chain_closed_form(const ik_chain *chain, ik_closed_form *out,
                                               const char **out_reason)
{
    ik_closed_form cf;
    const char *reason;
    memset(&cf, 0, sizeof cf);
    cf.kind = IK_CLOSED_FORM_NONE;
    if (!chain || !out)
        reason = "chain or out is NULL";
    else if (!ik__closed_six(chain))
        reason = "not six or seven revolute joints (fixed joints aside)";
    else if (ik_chain_validate(chain) != IK_OK)
        reason = "the chain is not valid (ik_chain_validate())";
    else
        reason = ik__closed_form_of(chain, &cf);
    if (out)
        *out = cf;
    if (out_reason)
        *out_reason = reason;
    return cf.kind;
}

// The elbow's terms that stay within a solve, in the plane across axis 2 (basis e1 along a, e2 =
// h2 x e1): a, b and h3 x b (docs/closed-forms.md, "The elbow").
typedef struct ik__closed_elbow_terms {
    ik_vec3 e1, e2;
    ik_real a, b[2], hb[2];     // |a|; b and h3 x b in the plane
    ik_real ab_cos, ab_sin, ab; // 2 a . b, 2 a . (h3 x b), |a|^2 + |b|^2
    ik_real s3;                 // h3 = s3 h2
    ik_real extent;             // |p2| + reach (the rounding of x - p2 comes with these)
} ik__closed_elbow_terms;

// The elbow's terms for e2 e3 x0 (axes 2 and 3 parallel).
static void ik__closed_elbow_make(const ik_closed_form *cf, ik_vec3 x0, ik__closed_elbow_terms *e)
{
    ik_vec3 h = cf->axis[1];
    ik_vec3 a = ik__across(h, ik_vec3_sub(cf->point[2], cf->point[1]));
    ik_vec3 b = ik__across(h, ik_vec3_sub(x0, cf->point[2]));
    ik_vec3 hb = ik_vec3_cross(cf->axis[2], b);
    e->a = ik_vec3_length(a);
    e->e1 = e->a > 0 ? ik_vec3_scale(a, 1 / e->a) : ik_vec3_any_perpendicular(h);
    e->e2 = ik_vec3_cross(h, e->e1);
    e->b[0] = ik_vec3_dot(b, e->e1), e->b[1] = ik_vec3_dot(b, e->e2);
    e->hb[0] = ik_vec3_dot(hb, e->e1), e->hb[1] = ik_vec3_dot(hb, e->e2);
    e->ab_cos = 2 * e->a * e->b[0];
    e->ab_sin = 2 * e->a * e->hb[0];
    e->ab = e->a * e->a + ik_vec3_dot(b, b);
    e->extent = ik_vec3_length(cf->point[1]) + cf->reach;
    e->s3 = ik_vec3_dot(h, cf->axis[2]) > 0 ? 1 : -1;
}

// The coordinates of v in the elbow's plane into d.
static void ik__closed_in_plane(const ik__closed_elbow_terms *e, ik_vec3 v, ik_real *d)
{
    d[0] = ik_vec3_dot(v, e->e1);
    d[1] = ik_vec3_dot(v, e->e2);
}

// The 0, 1 or 2 answers (q2, q3) of e2 e3 x0 = x (d: x - p2 in the elbow's plane; extent: the
// size of the coordinates x came from) into q[2 k ..], their cosines and sines into cs[4 k ..]
// (unless cs is NULL).
static int ik__closed_elbow(const ik__closed_elbow_terms *e, const ik_real *d, ik_real extent,
                            ik_real *q, ik_real *cs, int *singular)
{
    ik_real d2 = d[0] * d[0] + d[1] * d[1], t[2], c3[4];
    // |a + Rot(h3, q3) b| = |d|
    int n =
        ik__closed_trig(e->ab_cos, e->ab_sin, d2 - e->ab,
                        4 * (d2 + e->ab + IK_SQRT(d2) * (extent + e->extent)), 0, t, c3, singular);
    int k;
    for (k = 0; k < n; k++) { // joint 2 turns u = a + Rot(h3, q3) b onto d
        const ik_real *c = c3 + 2 * k;
        ik_real u0 = e->a + c[0] * e->b[0] + c[1] * e->hb[0], u1 = c[0] * e->b[1] + c[1] * e->hb[1];
        ik_real x = u0 * d[0] + u1 * d[1], y = u0 * d[1] - u1 * d[0];
        q[2 * k] = cs ? ik__closed_angle(x, y, cs + 4 * k) : ik__closed_atan2(y, x);
        q[2 * k + 1] = t[k];
        if (cs) {
            cs[4 * k + 2] = c[0];
            cs[4 * k + 3] = c[1];
        }
    }
    return n;
}

// ik__closed_elbow() for the target x (root frame).
static int ik__closed_elbow_at(const ik_closed_form *cf, const ik__closed_elbow_terms *e, ik_vec3 x,
                               ik_real *q, ik_real *cs, int *singular)
{
    ik_real d[2];
    ik__closed_in_plane(e, ik_vec3_sub(x, cf->point[1]), d);
    return ik__closed_elbow(e, d, ik_vec3_length(x), q, cs, singular);
}

// p + Rot(h, -angle) (x - p), the angle's cosine and sine cs: x with joint (h, p)'s turn undone.
static ik_vec3 ik__closed_undo(ik_vec3 h, ik_vec3 p, const ik_real *cs, ik_vec3 x)
{
    return ik_vec3_add(p, ik__rotate(h, cs[0], -cs[1], ik_vec3_sub(x, p)));
}

// Rot(h, angle) from the angle's cosine and sine cs.
static ik_mat3 ik__closed_rot(ik_vec3 h, const ik_real *cs)
{
    return ik__mat3_axis_angle(h, cs[0], cs[1]);
}

// Three axes meeting in a point (a wrist, an SRS arm's shoulder): h[0..2] (joints first ..
// first + 2), across h[2], whether ortho and its zero (as ik_closed_form's wrist_zero), and the
// flag of its singularity.
typedef struct ik__closed_axes3 {
    const ik_vec3 *h;
    ik_vec3 across;
    const ik_real *zero;
    bool ortho;
    int first, flag;
} ik__closed_axes3;

// cf's wrist (its last three axes) as an ik__closed_axes3.
static ik__closed_axes3 ik__closed_wrist_axes(const ik_closed_form *cf)
{
    ik__closed_axes3 t;
    t.first = cf->joint_count - 3;
    t.h = cf->axis + t.first;
    t.across = cf->across;
    t.zero = cf->wrist_zero;
    t.ortho = cf->ortho_wrist;
    t.flag = IK_CLOSED_WRIST_SINGULAR;
    return t;
}

// The answers of Ra Rb Rc = Rw for the three axes of t into ans[k].q[t->first ..] (z = Rw h[2],
// x = Rw across; ref: the first angle where it is free), ans[0]'s other values and flags copied:
// 0, 1 or 2, the second one's middle angle on the other side (docs/closed-forms.md, "The
// wrist").
static int ik__closed_triple(const ik__closed_axes3 *t, ik_vec3 z, ik_vec3 x, ik_real ref,
                             ik__closed_answer *ans)
{
    const ik_vec3 *h = t->h;
    const int f = t->first;
    ik_real zc = ik_vec3_length(ik_vec3_cross(h[0], z)), mid[2], cmid[4], cfirst[2], cs[2];
    bool free = !(zc > IK__CLOSED_FREE); // (first and last axes in line: the first free)
    int n, k, singular = !(zc > IK_SQRT(IK_EPSILON));
    if (t->ortho) { // Rot(h1, mid) h2 at the angle h0 to z has from h0
        ik_real zh = ik_vec3_dot(h[0], z), zn = IK_SQRT(zc * zc + zh * zh);
        cs[0] = t->zero[0], cs[1] = t->zero[1];
        n = free ? 1 : 2;
        for (k = 0; k < n; k++) { // mid = +-phi - phi0
            ik_real sp = (k ? -zc : zc) / zn, cp = zh / zn;
            cmid[2 * k] = cp * cs[0] + sp * cs[1];
            cmid[2 * k + 1] = sp * cs[0] - cp * cs[1];
            mid[k] = ik__closed_atan2(cmid[2 * k + 1], cmid[2 * k]);
        }
    } else
        n = ik__closed_plane(h[1], h[2], h[0], ik_vec3_dot(h[0], z), 0, 0, mid, cmid, &singular);
    for (k = 0; k < n; k++) {
        ans[k] = ans[0];
        ans[k].q[f + 1] = mid[k];
        if (k == 1 && t->ortho) { // the flip: first and last half a turn on
            ans[1].q[f] = ans[0].q[f] + (ans[0].q[f] > 0 ? -IK_PI : IK_PI);
            ans[1].q[f + 2] = ans[0].q[f + 2] + (ans[0].q[f + 2] > 0 ? -IK_PI : IK_PI);
            break;
        }
        if (free)
            ans[k].q[f] = ref, cfirst[0] = IK_COS(ref), cfirst[1] = IK_SIN(ref);
        else if (t->ortho) // (Rot(h1, mid) h2's part across h0 lies along h1 x h0)
            ans[k].q[f] = ik__closed_angle(ik_vec3_dot(z, ik_vec3_cross(h[1], h[0])),
                                           ik_vec3_dot(z, h[1]), cfirst);
        else
            ans[k].q[f] = ik__closed_turn(
                h[0], ik__rotate(h[1], cmid[2 * k], cmid[2 * k + 1], h[2]), z, cfirst);
        ans[k].q[f + 2] = ik__closed_turn(h[2], t->across,
                                          ik__rotate(h[1], cmid[2 * k], -cmid[2 * k + 1],
                                                     ik__rotate(h[0], cfirst[0], -cfirst[1], x)),
                                          cs);
        if (singular)
            ans[k].flags |= t->flag;
    }
    return n;
}

// A spherical wrist's answers for the rotation rg = R1 .. R6 and the wrist centre's target c.
static int ik__closed_spherical(const ik_closed_form *cf, const ik_mat3 *rg, ik_vec3 c,
                                const ik_real *ref, ik__closed_answer *ans)
{
    const ik_vec3 *h = cf->axis, *p = cf->point;
    ik__closed_elbow_terms e;
    ik_real q1[2], c1[4], q23[4], c23[8], s3 = ik_vec3_dot(h[1], h[2]) > 0 ? 1 : -1;
    ik__closed_axes3 wrist = ik__closed_wrist_axes(cf);
    ik_vec3 zg = ik_mat3_mul_vec3(*rg, h[5]), xg = ik_mat3_mul_vec3(*rg, cf->across);
    int n1, n23, i, k, count = 0, shoulder, elbow;
    // joint 1 keeps c's height along axis 2
    n1 = ik__closed_plane(
        h[0], h[1], ik_vec3_sub(c, p[0]), ik_vec3_dot(h[1], ik_vec3_sub(cf->centre, p[0])),
        ik_vec3_length(c) + ik_vec3_length(p[0]) + cf->reach, ref[0], q1, c1, &shoulder);
    ik__closed_elbow_make(cf, cf->centre, &e);
    for (i = 0; i < n1; i++) { // (R1^T rg's images of axis 6 and across)
        ik_vec3 z1 = ik__rotate(h[0], c1[2 * i], -c1[2 * i + 1], zg);
        ik_vec3 x1 = ik__rotate(h[0], c1[2 * i], -c1[2 * i + 1], xg);
        n23 = ik__closed_elbow_at(cf, &e, ik__closed_undo(h[0], p[0], c1 + 2 * i, c), q23, c23,
                                  &elbow);
        for (k = 0; k < n23; k++) {
            ik__closed_answer *a = &ans[count];
            // R2 R3 = Rot(h2, q2 + s3 q3): (R1 R2 R3)^T rg = Rot(h2, -(q2 + s3 q3)) R1^T rg
            const ik_real *c2 = c23 + 4 * k;
            ik_real back[2] = { c2[0] * c2[2] - s3 * c2[1] * c2[3],
                                -(c2[1] * c2[2] + s3 * c2[0] * c2[3]) };
            ik_vec3 z = ik__rotate(h[1], back[0], back[1], z1);
            ik_vec3 x = ik__rotate(h[1], back[0], back[1], x1);
            a->q[0] = q1[i], a->q[1] = q23[2 * k], a->q[2] = q23[2 * k + 1];
            a->flags = (shoulder ? IK_CLOSED_SHOULDER_SINGULAR : 0) |
                       (elbow ? IK_CLOSED_ELBOW_SINGULAR : 0);
            count += ik__closed_triple(&wrist, z, x, ref[3], a);
        }
    }
    return count;
}

// Rot(h, t) v = c[0] cos t + c[1] sin t + c[2] for the unit h (Rodrigues): v's circle about h.
static void ik__closed_circle(ik_vec3 h, ik_vec3 v, ik_vec3 *c)
{
    c[2] = ik_vec3_scale(h, ik_vec3_dot(h, v));
    c[0] = ik_vec3_sub(v, c[2]);
    c[1] = ik_vec3_cross(h, v);
}

// The point of circle c at the angle of cosine ca and sine sa.
static ik_vec3 ik__closed_circle_at(const ik_vec3 *c, ik_real ca, ik_real sa)
{
    return ik_vec3_add(ik_vec3_add(ik_vec3_scale(c[0], ca), ik_vec3_scale(c[1], sa)), c[2]);
}

// Three parallel axes: what stays within a solve.
typedef struct ik__closed_parallel_terms {
    ik__closed_elbow_terms e;
    ik_vec3 in5[2], in2[2]; // h2's part across h5 and that x h5; h5's part across h2, h2 x that
    ik_vec3 h5[3];          // Rg (h5's circle about h6)
    ik_real w[2], wlen;     // c - p4 in the elbow's plane; its length
    ik_real s4;             // h4 = s4 h2
} ik__closed_parallel_terms;

// Three parallel axes: joints 2, 3, 4 for joints 1, 5, 6 in a (flags set), R2 R3 R4 = Rot(h2,
// theta) and d, joint 4's target in the elbow's plane (extent: the size of its coordinates); 0,
// 1 or 2 answers from a on (docs/closed-forms.md, "Three parallel axes").
static int ik__closed_planar(const ik__closed_parallel_terms *t, const ik_real *d, ik_real extent,
                             ik_real theta, ik__closed_answer *a)
{
    ik_real q23[4];
    int k, elbow, n = ik__closed_elbow(&t->e, d, extent, q23, NULL, &elbow);
    for (k = 0; k < n; k++) {
        a[k].q[0] = a->q[0], a[k].q[4] = a->q[4], a[k].q[5] = a->q[5];
        a[k].flags = a->flags | (elbow ? IK_CLOSED_ELBOW_SINGULAR : 0);
        a[k].q[1] = q23[2 * k];
        a[k].q[2] = q23[2 * k + 1];
        a[k].q[3] = ik__angle_near(t->s4 * (theta - q23[2 * k] - t->e.s3 * q23[2 * k + 1]), 0);
    }
    return n;
}

// Three parallel axes: the answers for joints 1, 5, 6 in a (flags set; cs1, cs6: joint 1's and
// t6 = -q6's cosines and sines; g = Rg^T R1 h2's circle gc about h6; x: joint 4's base target in
// the elbow's plane) into a on: 0, 1 or 2; theta's cosine and sine into ct.
static inline IK__ALWAYS_INLINE int
ik__closed_parallel_at(const ik_closed_form *cf, const ik__closed_parallel_terms *t,
                       const ik_real *cs1, const ik_real *cs6, const ik_vec3 *gc, const ik_real *x,
                       ik_real extent, ik_real *ct, ik__closed_answer *a)
{
    ik_vec3 u, v;
    ik_real d[2], theta;
    // joint 5 turns u = M^T h2 = R6 g back to h2
    u = ik__closed_circle_at(gc, cs6[0], -cs6[1]);
    a->q[4] = ik__closed_atan2(ik_vec3_dot(u, t->in5[1]), ik_vec3_dot(u, t->in5[0]));
    // M R5^T = Rot(h2, theta) turns h5 to v = M h5 = R1^T Rg R6^T h5
    v = ik__rotate(cf->axis[0], cs1[0], -cs1[1], ik__closed_circle_at(t->h5, cs6[0], cs6[1]));
    theta = ik__closed_angle(ik_vec3_dot(v, t->in2[0]), ik_vec3_dot(v, t->in2[1]), ct);
    // joint 4's target: x1 - Rot(h2, theta) (c - p4)
    d[0] = x[0] - (ct[0] * t->w[0] - ct[1] * t->w[1]);
    d[1] = x[1] - (ct[1] * t->w[0] + ct[0] * t->w[1]);
    return ik__closed_planar(t, d, extent, theta, a);
}

// A free joint 6 (axis 6 in line with axis 2: theta = theta0 - sigma (q6 - q6_0)) whose value
// left the elbow's target out of reach: the value nearest it that puts the target at the middle
// of the elbow's reach, or as near as it goes, into *t6 = -q6 and cs6 (its cosine and sine);
// false if theta cannot move the target (docs/closed-forms.md, "Three parallel axes").
static bool ik__closed_free6(const ik__closed_parallel_terms *t, const ik_real *x,
                             const ik_real *ct, ik_real sigma, ik_real *t6, ik_real *cs6)
{
    ik_real xl = IK_SQRT(x[0] * x[0] + x[1] * x[1]),
            wl = IK_SQRT(t->w[0] * t->w[0] + t->w[1] * t->w[1]);
    ik_real mid = t->e.ab, k, phi, best, theta0 = ik__closed_atan2(ct[1], ct[0]), shift;
    if (!(xl * wl > 0))
        return false;
    // |x - Rot(theta) w|^2 = |x|^2 + |w|^2 - 2 |x| |w| cos(theta + phi) = the middle
    k = ik__clamp((xl * xl + wl * wl - mid) / (2 * xl * wl), -1, 1);
    phi = ik__closed_atan2(t->w[1], t->w[0]) - ik__closed_atan2(x[1], x[0]);
    k = ik__closed_atan2(IK_SQRT((1 - k) * (1 + k)), k); // (its arc cosine)
    best = k - phi;
    if (IK_FABS(ik__angle_near(best - theta0, 0)) > IK_FABS(ik__angle_near(-k - phi - theta0, 0)))
        best = -k - phi;
    // t6 = -q6 moves by sigma (best - theta0)
    shift = sigma * ik__angle_near(best - theta0, 0);
    *t6 = ik__angle_near(*t6 + shift, 0);
    cs6[0] = IK_COS(*t6), cs6[1] = IK_SIN(*t6);
    return true;
}

// Three parallel axes' answers for joint 1 (a->q[0], flags; cs1 its cosine and sine; x1 the
// target c with joint 1 undone), from a on.
static int ik__closed_parallel_wrist(const ik_closed_form *cf, const ik__closed_parallel_terms *t,
                                     const ik_mat3 *rg, const ik_real *cs1, ik_vec3 x1,
                                     ik_real ref6, ik__closed_answer *a)
{
    const ik_vec3 *h = cf->axis;
    ik_vec3 g = ik_mat3_mul_vec3(ik_mat3_transpose(*rg), ik__rotate(h[0], cs1[0], cs1[1], h[1]));
    ik_vec3 gc[3];
    ik_real t6[2], c6[4], ct[2], x[2], extent = ik_vec3_length(x1) + t->wlen;
    int k, n6, n, wrist, count = 0, flags = a->flags;
    bool free6 = !(ik_vec3_length(ik_vec3_cross(h[5], g)) > IK__CLOSED_FREE);
    ik__closed_in_plane(&t->e, ik_vec3_sub(x1, cf->point[1]), x);
    // joint 6 keeps axis 5's angle to axis 2: g . Rot(h6, -q6) h5 = h2 . h5, g = Rg^T R1 h2
    n6 = ik__closed_plane(h[5], h[4], g, ik_vec3_dot(h[1], h[4]), 0, -ref6, t6, c6, &wrist);
    flags |= wrist ? IK_CLOSED_WRIST_SINGULAR : 0;
    ik__closed_circle(h[5], g, gc);
    for (k = 0; k < n6; k++) {
        ik_real *cs6 = c6 + 2 * k;
        a[count].q[0] = a->q[0];
        a[count].flags = flags;
        n = ik__closed_parallel_at(cf, t, cs1, cs6, gc, x, extent, ct, a + count);
        if (n == 0 && free6 &&
            ik__closed_free6(t, x, ct, ik_vec3_dot(g, h[5]) > 0 ? 1 : -1, t6 + k, cs6))
            n = ik__closed_parallel_at(cf, t, cs1, cs6, gc, x, extent, ct, a + count);
        for (; n > 0; n--)
            a[count++].q[5] = -t6[k];
    }
    return count;
}

// Three parallel axes' answers for the rotation rg = R1 .. R6 and c, the target of the point
// where axes 5 and 6 meet.
static int ik__closed_parallel3(const ik_closed_form *cf, const ik_mat3 *rg, ik_vec3 c,
                                const ik_real *ref, ik__closed_answer *ans)
{
    const ik_vec3 *h = cf->axis, *p = cf->point;
    ik__closed_parallel_terms t;
    ik_vec3 w = ik_vec3_sub(cf->centre, p[3]);
    ik_real q1[2], c1[4];
    int n1, i, k, count = 0, shoulder;
    n1 = ik__closed_plane(
        h[0], h[1], ik_vec3_sub(c, p[0]), ik_vec3_dot(h[1], ik_vec3_sub(cf->centre, p[0])),
        ik_vec3_length(c) + ik_vec3_length(p[0]) + cf->reach, ref[0], q1, c1, &shoulder);
    ik__closed_elbow_make(cf, p[3], &t.e);
    ik__closed_in_plane(&t.e, w, t.w);
    t.wlen = ik_vec3_length(w);
    t.s4 = ik_vec3_dot(h[1], h[3]) > 0 ? 1 : -1;
    t.in5[0] = ik__across(h[4], h[1]);
    t.in5[1] = ik_vec3_cross(t.in5[0], h[4]);
    t.in2[0] = ik__across(h[1], h[4]);
    t.in2[1] = ik_vec3_cross(h[1], t.in2[0]);
    ik__closed_circle(h[5], h[4], t.h5);
    for (k = 0; k < 3; k++)
        t.h5[k] = ik_mat3_mul_vec3(*rg, t.h5[k]);
    for (i = 0; i < n1; i++) {
        ans[count].q[0] = q1[i];
        ans[count].flags = shoulder ? IK_CLOSED_SHOULDER_SINGULAR : 0;
        count += ik__closed_parallel_wrist(cf, &t, rg, c1 + 2 * i,
                                           ik__closed_undo(h[0], p[0], c1 + 2 * i, c), ref[5],
                                           ans + count);
    }
    return count;
}

// Joint j's values x + 2 pi k within its limits into v: the one nearest ref first, then its
// neighbours within the limits (limits not both finite: only the first); 0 if none.
static inline IK__ALWAYS_INLINE int ik__closed_turns(ik_real x, ik_real lo, ik_real hi, ik_real ref,
                                                     ik_real *v)
{
    ik_real turn = 2 * IK_PI, y, slack = 16 * IK_EPSILON * (IK_PI + IK_FABS(x));
    int n = 0, k;
    if (x >= lo && x <= hi && x + turn > hi + slack && x - turn < lo - slack) {
        v[0] = x; // (the only one: most joints)
        return 1;
    }
    y = ik__angle_near(x, ik__clamp(ref, lo, hi));
    slack = 16 * IK_EPSILON * (IK_PI + IK_FABS(y));
    if (y < lo - slack)
        y += turn;
    else if (y > hi + slack)
        y -= turn;
    for (k = 0; k < 3; k++) { // (y first: the nearest ref)
        ik_real z = y + (ik_real)(k == 2 ? -1 : k) * turn;
        if ((k == 0 || (ik__finite(lo) && ik__finite(hi))) && z >= lo - slack && z <= hi + slack)
            v[n++] = ik__clamp(z, lo, hi);
    }
    return n;
}

// ---- closed forms: seven joints, shoulder, elbow, wrist (docs/closed-forms.md, "Seven joints")

// An SRS arm at a target: where the wrist centre is, the swivel's frame and each elbow
// answer's shoulder rotation at swivel 0.
typedef struct ik__srs_pose {
    ik_mat3 rg;           // the motion G = target home^-1's rotation
    ik_vec3 n, r;         // unit: the shoulder toward the wrist centre; swivel 0's direction
    ik_real q4[2], c4[4]; // the elbow's answers, their cosines and sines
    int elbows, elbow_singular;
    ik_mat3 r0[2]; // R1 R2 R3 at swivel 0, each elbow answer
} ik__srs_pose;

// Swivel 0's direction across the unit n: along axis 1 (h1), else a fixed one across it.
static ik_vec3 ik__srs_zero(ik_vec3 h1, ik_vec3 n)
{
    ik_vec3 r = ik__across(n, h1);
    if (!(ik_vec3_length(r) > IK_SQRT(IK_EPSILON)))
        r = ik__across(n, ik_vec3_any_perpendicular(h1));
    return ik_vec3_normalize(r);
}

// The unit direction across the shoulder-wrist line b0 (q = 0's shoulder frame) in which the
// swivel is measured: toward the elbow, or across axis 4 where the elbow is on the line (to 64
// sqrt(epsilon) of its distance: beyond the rounding of a straight elbow's angle); made across
// the line to rounding.
static ik_vec3 ik__srs_side(const ik_closed_form *cf, ik_vec3 b0)
{
    ik_vec3 u0 = ik_vec3_normalize(b0), a0 = ik_vec3_sub(cf->elbow, cf->shoulder);
    ik_vec3 m = ik__across(u0, a0);
    if (!(ik_vec3_length(m) > 64 * IK_SQRT(IK_EPSILON) * ik_vec3_length(a0)))
        m = ik_vec3_cross(cf->axis[3], u0);
    return ik_vec3_normalize(ik__across(u0, ik_vec3_normalize(m)));
}

// The shoulder-wrist vector in the shoulder's frame at q = 0 for the elbow's cosine and sine cs.
static ik_vec3 ik__srs_reach(const ik_closed_form *cf, const ik_real *cs)
{
    ik_vec3 w = ik_vec3_sub(cf->centre, cf->point[3]);
    return ik_vec3_sub(ik_vec3_add(cf->point[3], ik__rotate(cf->axis[3], cs[0], cs[1], w)),
                       cf->shoulder);
}

// The rotation taking the frame (u0, m0, u0 x m0) to (n, r, n x r).
static ik_mat3 ik__srs_frames(ik_vec3 u0, ik_vec3 m0, ik_vec3 n, ik_vec3 r)
{
    ik_vec3 from[3], to[3];
    ik_mat3 m;
    int i, j, k;
    from[0] = u0, from[1] = m0, from[2] = ik_vec3_cross(u0, m0);
    to[0] = n, to[1] = r, to[2] = ik_vec3_cross(n, r);
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            for (m.m[i][j] = 0, k = 0; k < 3; k++)
                m.m[i][j] += (&to[k].x)[i] * (&from[k].x)[j];
    return m;
}

// The elbow's answers and the shoulder's rotations at swivel 0 for the wrist centre's target c
// into sp (ref: joint 4 where it is free); the count of elbow answers (0: out of reach).
static int ik__srs_pose_make(const ik_closed_form *cf, const ik_mat3 *rg, ik_vec3 c, ik_real ref,
                             ik__srs_pose *sp)
{
    ik_vec3 v = ik_vec3_sub(c, cf->shoulder), d = ik_vec3_sub(cf->shoulder, cf->point[3]);
    ik_vec3 w = ik_vec3_sub(cf->centre, cf->point[3]);
    ik_real len2 = ik_vec3_dot(v, v), len = IK_SQRT(len2);
    int e;
    sp->rg = *rg;
    sp->elbows = 0;
    if (!(len > 64 * IK_EPSILON * cf->reach)) // (the wrist centre at the shoulder: not solved)
        return 0;
    sp->n = ik_vec3_scale(v, 1 / len);
    sp->r = ik__srs_zero(cf->axis[0], sp->n);
    // the elbow keeps the wrist centre at len from the shoulder: d . Rot(h4, q4) w = c4
    sp->elbows =
        ik__closed_plane(cf->axis[3], w, d, (ik_vec3_dot(w, w) + ik_vec3_dot(d, d) - len2) / 2,
                         ik_vec3_length(c) + cf->reach, ref, sp->q4, sp->c4, &sp->elbow_singular);
    for (e = 0; e < sp->elbows; e++) { // R0 takes the wrist centre's and the elbow's directions
        ik_vec3 b0 = ik__srs_reach(cf, sp->c4 + 2 * e);
        sp->r0[e] = ik__srs_frames(ik_vec3_normalize(b0), ik__srs_side(cf, b0), sp->n, sp->r);
    }
    return sp->elbows;
}

// cf's shoulder (axes 1, 2, 3) as an ik__closed_axes3.
static ik__closed_axes3 ik__closed_shoulder_axes(const ik_closed_form *cf)
{
    ik__closed_axes3 t;
    t.first = 0;
    t.h = cf->axis;
    t.across = cf->shoulder_across;
    t.zero = cf->shoulder_zero;
    t.ortho = cf->ortho_shoulder;
    t.flag = IK_CLOSED_SHOULDER_SINGULAR;
    return t;
}

// Whether joints first .. last - 1 of q have values within their limits (whole turns aside).
static bool ik__srs_fits(const ik_closed_form *cf, const ik_real *q, int first, int last)
{
    ik_real v[3];
    for (; first < last; first++)
        if (ik__closed_turns(q[first], cf->lo[first], cf->hi[first], 0, v) == 0)
            return false;
    return true;
}

// Elbow answer e's answers at the swivel's cosine and sine cs into ans (branch 4 e + 2 s + w):
// 0 to 4; fits: only those whose elbow and shoulder are within the limits (docs/closed-forms.md,
// "Seven joints").
static int ik__srs_answers(const ik_closed_form *cf, const ik__srs_pose *sp, int e,
                           const ik_real *cs, const ik_real *ref, bool fits, ik__closed_answer *ans)
{
    ik__closed_axes3 shoulder = ik__closed_shoulder_axes(cf), wrist = ik__closed_wrist_axes(cf);
    ik_mat3 r03, rw;
    ik__closed_answer sh[2];
    ik_real v[3];
    int ns, s, k, nw, count = 0;
    if (fits && ik__closed_turns(sp->q4[e], cf->lo[3], cf->hi[3], 0, v) == 0)
        return 0;
    r03 = ik_mat3_mul(ik__mat3_axis_angle(sp->n, cs[0], cs[1]), sp->r0[e]);
    sh[0].q[3] = sp->q4[e], sh[0].q[6] = 0;
    sh[0].flags = sp->elbow_singular ? IK_CLOSED_ELBOW_SINGULAR : 0;
    ns = ik__closed_triple(&shoulder, ik_mat3_mul_vec3(r03, cf->axis[2]),
                           ik_mat3_mul_vec3(r03, cf->shoulder_across), ref[0], sh);
    // the wrist: R5 R6 R7 = (R1 R2 R3 R4)^T rg
    rw = ik_mat3_mul(r03, ik__closed_rot(cf->axis[3], sp->c4 + 2 * e));
    rw = ik_mat3_mul(ik_mat3_transpose(rw), sp->rg);
    for (s = 0; s < ns; s++) {
        if (fits && !ik__srs_fits(cf, sh[s].q, 0, 4))
            continue;
        ans[count] = sh[s];
        nw = ik__closed_triple(&wrist, ik_mat3_mul_vec3(rw, cf->axis[6]),
                               ik_mat3_mul_vec3(rw, cf->across), ref[4], &ans[count]);
        for (k = 0; k < nw; k++)
            ans[count + k].branch = 4 * e + 2 * s + k;
        count += nw;
    }
    return count;
}

// An SRS arm's answers at the swivel for the rotation rg and c, the wrist centre's target.
static int ik__closed_srs(const ik_closed_form *cf, const ik_mat3 *rg, ik_vec3 c, ik_real swivel,
                          const ik_real *ref, ik__closed_answer *ans)
{
    ik__srs_pose sp;
    ik_real cs[2];
    int e, count = 0;
    cs[0] = IK_COS(swivel), cs[1] = IK_SIN(swivel);
    ik__srs_pose_make(cf, rg, c, ref[3], &sp);
    for (e = 0; e < sp.elbows; e++)
        count += ik__srs_answers(cf, &sp, e, cs, ref, false, ans + count);
    return count;
}

// Whether solution s goes before t: within the limits first, then nearer.
static bool ik__closed_before(const ik_closed_solution *s, const ik_closed_solution *t)
{
    if ((s->outside == 0) != (t->outside == 0))
        return s->outside == 0;
    return s->distance < t->distance;
}

// s into out[0 .. max_out - 1], kept in order (*count of them so far); dropped if last.
static void ik__closed_insert(ik_closed_solution *out, int max_out, int *count,
                              const ik_closed_solution *s)
{
    int i = *count;
    if (i == max_out) {
        if (!ik__closed_before(s, &out[max_out - 1]))
            return;
        i--;
    } else
        (*count)++;
    for (; i > 0 && ik__closed_before(s, &out[i - 1]); i--)
        out[i] = out[i - 1];
    out[i] = *s;
}

// An answer's listing: each joint's values within its limits (ik__closed_turns(), nearest
// near_state first), or its one value nearest the limits' middle (outside bit j).
typedef struct ik__closed_listing {
    ik_real v[7][3];
    int count[7], outside, joints;
    int combinations; // the product of the counts
    ik_real first;    // the first combination's weighted square distance from near_state
} ik__closed_listing;

// The weighted square distance of value k of joint j of l from near.
static ik_real ik__closed_term(const ik__closed_listing *l, int j, int k, const ik_real *near,
                               const ik_real *weights)
{
    ik_real e = l->v[j][k] - (near ? near[j] : 0);
    return (weights ? weights[j] : 1) * e * e;
}

static void ik__closed_listing_make(const ik_closed_form *cf, const ik__closed_answer *a,
                                    const ik_real *near, const ik_real *weights,
                                    ik__closed_listing *l)
{
    int j;
    l->outside = 0;
    l->joints = cf->joint_count;
    for (j = 0; j < l->joints; j++) {
        l->count[j] = ik__closed_turns(a->q[j], cf->lo[j], cf->hi[j], near ? near[j] : 0, l->v[j]);
        if (l->count[j] == 0) {
            l->v[j][0] = ik__angle_near(a->q[j], cf->lo[j] / 2 + cf->hi[j] / 2);
            l->outside |= 1 << j;
        }
    }
    l->combinations = 1;
    l->first = 0;
    for (j = 0; j < l->joints; j++) { // (outside: listed once, each joint nearest near_state)
        l->count[j] = l->outside ? 1 : l->count[j];
        l->combinations *= l->count[j];
        l->first += ik__closed_term(l, j, 0, near, weights);
    }
}

// The square distance of listing l's first combination (pass 0), or the least of the others'
// (pass 1: the first's and the least step of one joint to another of its values).
static ik_real ik__closed_bound(const ik__closed_listing *l, int pass, const ik_real *near,
                                const ik_real *weights)
{
    ik_real step = IK_INFINITY;
    int j, k;
    for (j = 0; j < l->joints && pass; j++) {
        ik_real first = ik__closed_term(l, j, 0, near, weights);
        for (k = 1; k < l->count[j]; k++) {
            ik_real more = ik__closed_term(l, j, k, near, weights) - first;
            step = more < step ? more : step;
        }
    }
    return pass ? l->first + step : l->first;
}

// Listing l of answer a into out: pass 0 its first combination (the nearest), pass 1 the others
// (every combination, the last joint fastest), skipped when out is full of nearer ones.
static void ik__closed_list(const ik__closed_listing *l, const ik__closed_answer *a, int branch,
                            int pass, const ik_real *near, const ik_real *weights,
                            ik_closed_solution *out, int max_out, ik_closed_info *info)
{
    ik_closed_solution s;
    int idx[7] = { 0 }, j, last = l->joints - 1;
    if (pass && l->combinations == 1)
        return;
    info->total += pass ? l->combinations - 1 : 1;
    s.flags = a->flags | (l->outside ? 0 : IK_CLOSED_WITHIN_LIMITS);
    s.outside = l->outside;
    s.branch = branch;
    s.distance = IK_SQRT(ik__closed_bound(l, pass, near, weights));
    if (info->count == max_out && !ik__closed_before(&s, &out[max_out - 1]))
        return;
    for (j = last; pass && j >= 0 && ++idx[j] == l->count[j]; j--) // (pass 1: from the second)
        idx[j] = 0;
    s.q[6] = 0;
    for (;;) {
        ik_real d = 0;
        for (j = 0; j <= last; j++) {
            s.q[j] = l->v[j][idx[j]];
            d += ik__closed_term(l, j, idx[j], near, weights);
        }
        s.distance = IK_SQRT(d);
        ik__closed_insert(out, max_out, &info->count, &s);
        for (j = last; pass && j >= 0 && ++idx[j] == l->count[j]; j--)
            idx[j] = 0;
        if (!pass || j < 0)
            return;
    }
}

// The listings' indices into order, first combination nearest first (listed in this order, a
// full out skips the farther answers' listings).
static void ik__closed_order(const ik__closed_listing *lists, int n, int *order)
{
    int a, b;
    for (a = 0; a < n; a++) {
        for (b = a; b > 0 && lists[a].first < lists[order[b - 1]].first; b--)
            order[b] = order[b - 1];
        order[b] = a;
    }
}

// Whether the solve's inputs are usable (see ik_closed_form_solve()).
static bool ik__closed_inputs_ok(const ik_closed_form *cf, ik_xform target, const ik_real *near,
                                 const ik_real *weights, int max_out)
{
    const ik_real *x = &target.rot.x, *y = &target.pos.x;
    int j, joints = cf->kind == IK_CLOSED_FORM_SRS ? 7 : 6;
    if ((cf->kind != IK_CLOSED_FORM_SPHERICAL_WRIST && cf->kind != IK_CLOSED_FORM_THREE_PARALLEL &&
         cf->kind != IK_CLOSED_FORM_SRS) ||
        cf->joint_count != joints || max_out < 1 || !ik_quat_is_unit(target.rot, IK_R(1e-4)))
        return false;
    for (j = 0; j < joints; j++)
        if ((j < 4 && !ik__bounded(x[j])) || (j < 3 && !ik__bounded(y[j])) ||
            (near && !ik__bounded(near[j])) ||
            (weights && !(ik__bounded(weights[j]) && weights[j] >= 0)) || ik__is_nan(cf->lo[j]) ||
            ik__is_nan(cf->hi[j]) ||
            cf->lo[j] > cf->hi[j]) // (a changed cf: its limits at least ordered, not NaN)
            return false;
    return true;
}

// The motion G = target home^-1's rotation into *rg; where it takes cf's centre.
static ik_vec3 ik__closed_motion(const ik_closed_form *cf, ik_xform target, ik_mat3 *rg)
{
    *rg = ik_mat3_mul(ik_quat_to_mat3(ik_quat_normalize(target.rot)),
                      ik_mat3_transpose(ik_quat_to_mat3(cf->home.rot)));
    return ik_vec3_add(target.pos, ik_mat3_mul_vec3(*rg, ik_vec3_sub(cf->centre, cf->home.pos)));
}

// The answers of cf's kind into ans (ref: the free angles); their count.
static int ik__closed_answers(const ik_closed_form *cf, ik_xform target, ik_real swivel,
                              const ik_real *ref, ik__closed_answer *ans)
{
    ik_mat3 rg;
    ik_vec3 c = ik__closed_motion(cf, target, &rg);
    int n, j;
    if (cf->kind == IK_CLOSED_FORM_SRS)
        return ik__closed_srs(cf, &rg, c, swivel, ref, ans);
    n = cf->kind == IK_CLOSED_FORM_SPHERICAL_WRIST ? ik__closed_spherical(cf, &rg, c, ref, ans)
                                                   : ik__closed_parallel3(cf, &rg, c, ref, ans);
    for (j = 0; j < n; j++)
        ans[j].q[6] = 0, ans[j].branch = j;
    return n;
}

IKDEF ik_result ik_closed_form_solve(const ik_closed_form *cf, ik_xform target,
                                     const ik_real *near_state, const ik_real *weights,
                                     ik_closed_solution *out, int max_out, ik_closed_info *info)
{
    ik_real swivel = 0;
    if (cf && cf->kind == IK_CLOSED_FORM_SRS && near_state &&
        ik_closed_form_swivel(cf, near_state, &swivel) != IK_OK)
        return IK_ERR_BAD_ARG;
    return ik_closed_form_solve_swivel(cf, target, swivel, near_state, weights, out, max_out, info);
}

IKDEF ik_result ik_closed_form_solve_swivel(const ik_closed_form *cf, ik_xform target,
                                            ik_real swivel, const ik_real *near_state,
                                            const ik_real *weights, ik_closed_solution *out,
                                            int max_out, ik_closed_info *info)
{
    ik__closed_answer ans[8];
    ik__closed_listing lists[8];
    ik_real ref[7];
    int n, j, order[8], pass;
    if (!cf || !out || !info)
        return IK_ERR_NULL_ARG;
    if (!ik__closed_inputs_ok(cf, target, near_state, weights, max_out) || !ik__bounded(swivel))
        return IK_ERR_BAD_ARG;
    for (j = 0; j < cf->joint_count; j++) // (free angles take near_state's)
        ref[j] = near_state ? ik__angle_near(near_state[j], 0) : 0;
    n = ik__closed_answers(cf, target, swivel, ref, ans);
    info->count = info->total = 0;
    info->branches = n;
    for (j = 0; j < n; j++)
        ik__closed_listing_make(cf, &ans[j], near_state, weights, &lists[j]);
    ik__closed_order(lists, n, order);
    for (pass = 0; pass < 2; pass++) // (the answers' nearest first: the rest mostly skipped)
        for (j = 0; j < n; j++)
            ik__closed_list(&lists[order[j]], &ans[order[j]], ans[order[j]].branch, pass,
                            near_state, weights, out, max_out, info);
    info->status = n == 0                ? IK_STATUS_UNREACHABLE
                   : out[0].outside == 0 ? IK_STATUS_CONVERGED
                                         : IK_STATUS_LIMITED;
    return IK_OK;
}

IKDEF ik_result ik_closed_form_swivel(const ik_closed_form *cf, const ik_real *q, ik_real *out)
{
    ik_mat3 r03 = ik_mat3_identity();
    ik_vec3 b0, n, r, m;
    ik_real cs4[2];
    int j;
    if (!cf || !q || !out)
        return IK_ERR_NULL_ARG;
    if (cf->kind != IK_CLOSED_FORM_SRS)
        return IK_ERR_BAD_ARG;
    for (j = 0; j < 7; j++)
        if (!ik__bounded(q[j]))
            return IK_ERR_BAD_ARG;
    for (j = 0; j < 3; j++)
        r03 = ik_mat3_mul(r03, ik__mat3_axis_angle(cf->axis[j], IK_COS(q[j]), IK_SIN(q[j])));
    // the elbow's side of the shoulder-wrist line, turned by the shoulder, from swivel 0's
    cs4[0] = IK_COS(q[3]), cs4[1] = IK_SIN(q[3]);
    b0 = ik__srs_reach(cf, cs4);
    n = ik_vec3_normalize(ik_mat3_mul_vec3(r03, b0));
    r = ik__srs_zero(cf->axis[0], n);
    m = ik_mat3_mul_vec3(r03, ik__srs_side(cf, b0));
    *out = ik__closed_atan2(ik_vec3_dot(ik_vec3_cross(n, r), m), ik_vec3_dot(r, m));
    return IK_OK;
}

// The swivels where u^T R w = c, R elbow answer e's shoulder rotation Rot(n, psi) m (m = R0) or
// its wrist's (Rot(n, psi) m)^T rg (m = R0 R4), into psi: 0, 1 or 2.
static int ik__srs_cross(const ik__srs_pose *sp, const ik_mat3 *m, bool wrist, ik_vec3 u, ik_vec3 w,
                         ik_real c, ik_real *psi)
{
    ik_real cs[4];
    int singular;
    if (wrist) // (u^T m^T Rot(n, -psi) rg w = (rg w) . Rot(n, psi) m u)
        return ik__closed_plane(sp->n, ik_mat3_mul_vec3(*m, u), ik_mat3_mul_vec3(sp->rg, w), c, 0,
                                0, psi, cs, &singular);
    return ik__closed_plane(sp->n, ik_mat3_mul_vec3(*m, w), u, c, 0, 0, psi, cs, &singular);
}

// The swivels where a joint of the shoulder (first 0) or the wrist (first 4) meets one of its
// limits, or where the triple's two answers meet, into psi: at most 16 (docs/closed-forms.md,
// "Swivel intervals").
static int ik__srs_triple_breaks(const ik_closed_form *cf, const ik__srs_pose *sp, const ik_mat3 *m,
                                 int first, ik_real *psi)
{
    const ik_vec3 *h = cf->axis + first;
    ik_real base = ik_vec3_dot(h[0], h[1]) * ik_vec3_dot(h[1], h[2]);
    ik_real meet =
        ik_vec3_length(ik_vec3_cross(h[0], h[1])) * ik_vec3_length(ik_vec3_cross(h[2], h[1]));
    int n = 0, j, side;
    bool wrist = first > 0;
    n += ik__srs_cross(sp, m, wrist, h[0], h[2], base + meet, psi + n);
    n += ik__srs_cross(sp, m, wrist, h[0], h[2], base - meet, psi + n);
    for (j = 0; j < 3; j++) {
        ik_real lo = cf->lo[first + j], hi = cf->hi[first + j];
        for (side = 0; side < 2 && hi - lo < 2 * IK_PI; side++) {
            ik_real c = IK_COS(side ? hi : lo), s = IK_SIN(side ? hi : lo);
            if (j == 0) // h1 . Rot(h0, -l) R h2 = h1 . h2
                n += ik__srs_cross(sp, m, wrist, ik__rotate(h[0], c, s, h[1]), h[2],
                                   ik_vec3_dot(h[1], h[2]), psi + n);
            else if (j == 1) // h0 . R h2 = h0 . Rot(h1, l) h2
                n += ik__srs_cross(sp, m, wrist, h[0], h[2],
                                   ik_vec3_dot(h[0], ik__rotate(h[1], c, s, h[2])), psi + n);
            else // h0 . R Rot(h2, -l) h1 = h0 . h1
                n += ik__srs_cross(sp, m, wrist, h[0], ik__rotate(h[2], c, -s, h[1]),
                                   ik_vec3_dot(h[0], h[1]), psi + n);
        }
    }
    return n;
}

// psi[0 .. n - 1] sorted, the repeated dropped (a whole turn apart too); -pi alone if none.
static int ik__srs_sorted(ik_real *psi, int n)
{
    ik_real close = 64 * IK_EPSILON, x;
    int i, k, m = 0;
    for (i = 0; i < n; i++) {
        for (x = psi[i], k = i; k > 0 && x < psi[k - 1]; k--)
            psi[k] = psi[k - 1];
        psi[k] = x;
    }
    for (i = 0; i < n; i++)
        if (m == 0 || psi[i] - psi[m - 1] > close)
            psi[m++] = psi[i];
    if (m > 1 && psi[0] + 2 * IK_PI - psi[m - 1] <= close)
        m--;
    if (m == 0)
        psi[m++] = -IK_PI;
    return m;
}

// Elbow answer e's branches within the limits at the swivel psi: bit b for branch 4 e + b.
static int ik__srs_feasible(const ik_closed_form *cf, const ik__srs_pose *sp, int e, ik_real psi)
{
    ik__closed_answer ans[4];
    ik_real cs[2], ref[7] = { 0 };
    int n, k, bits = 0;
    cs[0] = IK_COS(psi), cs[1] = IK_SIN(psi);
    n = ik__srs_answers(cf, sp, e, cs, ref, true, ans);
    for (k = 0; k < n; k++)
        bits |= ik__srs_fits(cf, ans[k].q, 4, 7) ? 1 << (ans[k].branch - 4 * e) : 0;
    return bits;
}

// Branch's runs of pieces within the limits (piece i: psi[i] .. psi[i + 1], the last one
// wrapping; bit of within[i]) into out from *count on, by lo; *count counts them all.
static void ik__srs_runs(const ik_real *psi, const int *within, int n, int bit, int branch,
                         ik_swivel_interval *out, int max_out, int *count)
{
    ik_swivel_interval run[17], x;
    int i, k, first = 0, start = -1, runs = 0;
    while (first < n && (within[first] >> bit & 1)) // (a piece outside to start from)
        first++;
    if (first == n)
        run[runs].lo = -IK_PI, run[runs++].hi = IK_PI;
    for (i = 1; first < n && i <= n; i++) {
        bool in = i < n && (within[(first + i) % n] >> bit & 1);
        if (in && start < 0)
            start = i;
        if (in || start < 0)
            continue;
        run[runs].lo = psi[(first + start) % n] + (first + start >= n ? 2 * IK_PI : 0);
        run[runs].hi = psi[(first + i) % n] + (first + i >= n ? 2 * IK_PI : 0);
        if (run[runs].lo >= IK_PI)
            run[runs].lo -= 2 * IK_PI, run[runs].hi -= 2 * IK_PI;
        runs++;
        start = -1;
    }
    for (i = 0; i < runs; i++) { // by lo, into out
        for (x = run[i], k = i; k > 0 && x.lo < run[k - 1].lo; k--)
            run[k] = run[k - 1];
        run[k] = x;
    }
    for (i = 0; i < runs; i++, (*count)++)
        if (*count < max_out)
            out[*count] = run[i], out[*count].branch = branch;
}

// Elbow answer e's swivel intervals into out from *count on (see ik__srs_runs()).
static void ik__srs_intervals(const ik_closed_form *cf, const ik__srs_pose *sp, int e,
                              ik_swivel_interval *out, int max_out, int *count)
{
    ik_mat3 m = ik_mat3_mul(sp->r0[e], ik__closed_rot(cf->axis[3], sp->c4 + 2 * e));
    ik_real psi[32], next;
    int within[32], n, i, b;
    // the pieces between the swivels where something changes, each tested at its middle
    n = ik__srs_triple_breaks(cf, sp, &sp->r0[e], 0, psi);
    n += ik__srs_triple_breaks(cf, sp, &m, 4, psi + n);
    n = ik__srs_sorted(psi, n);
    for (i = 0; i < n; i++) {
        next = i + 1 < n ? psi[i + 1] : psi[0] + 2 * IK_PI;
        within[i] = ik__srs_feasible(cf, sp, e, (psi[i] + next) / 2);
    }
    for (b = 0; b < 4; b++)
        ik__srs_runs(psi, within, n, b, 4 * e + b, out, max_out, count);
}

IKDEF ik_result ik_closed_form_swivel_intervals(const ik_closed_form *cf, ik_xform target,
                                                ik_swivel_interval *out, int max_out, int *count)
{
    ik__srs_pose sp;
    ik_mat3 rg;
    ik_vec3 c;
    int e, n = 0;
    if (!cf || !out || !count)
        return IK_ERR_NULL_ARG;
    if (cf->kind != IK_CLOSED_FORM_SRS || !ik__closed_inputs_ok(cf, target, NULL, NULL, max_out))
        return IK_ERR_BAD_ARG;
    c = ik__closed_motion(cf, target, &rg);
    ik__srs_pose_make(cf, &rg, c, 0, &sp);
    for (e = 0; e < sp.elbows; e++)
        ik__srs_intervals(cf, &sp, e, out, max_out, &n);
    *count = n;
    return IK_OK;
}

// Whether every joint of answer a has a value within its limits (the one nearest q), into v;
// their square distance from q into *d.
static bool ik__srs_within(const ik_closed_form *cf, const ik__closed_answer *a, const ik_real *q,
                           ik_real *v, ik_real *d)
{
    ik_real x[3];
    int j;
    *d = 0;
    for (j = 0; j < 7; j++) {
        if (ik__closed_turns(a->q[j], cf->lo[j], cf->hi[j], q[j], x) == 0)
            return false;
        v[j] = x[0];
        *d += (x[0] - q[j]) * (x[0] - q[j]);
    }
    return true;
}

// An SRS arm's answer within the limits nearest q at the swivel nearest q's: q's own, then
// outward a 32nd of a turn at a time, half a turn each way (docs/jacobian.md); into q, false
// (q untouched) if there is none.
static bool ik__srs_arm_start(const ik_closed_form *cf, ik_xform pose, ik_real *q)
{
    ik__srs_pose sp;
    ik__closed_answer ans[4];
    ik_mat3 rg;
    ik_vec3 c;
    ik_real from, cs[2], ref[7], v[7], found[7], d, best = -1;
    int i, j, e, n;
    if (ik_closed_form_swivel(cf, q, &from) != IK_OK)
        return false;
    for (j = 0; j < 7; j++)
        ref[j] = ik__angle_near(q[j], 0);
    c = ik__closed_motion(cf, pose, &rg);
    ik__srs_pose_make(cf, &rg, c, ref[3], &sp);
    for (i = 0; i < 33 && best < 0; i++) {
        ik_real psi = from + (2 * IK_PI / 32) * (ik_real)((i + 1) / 2) * (i % 2 ? 1 : -1);
        cs[0] = IK_COS(psi), cs[1] = IK_SIN(psi);
        for (e = 0; e < sp.elbows; e++)
            for (n = ik__srs_answers(cf, &sp, e, cs, ref, true, ans); n-- > 0;)
                if (ik__srs_within(cf, &ans[n], q, v, &d) && (best < 0 || d < best))
                    best = d, memcpy(found, v, sizeof found);
    }
    if (best < 0)
        return false;
    memcpy(q, found, sizeof found);
    return true;
}

// ik_arm_solve()'s first start for an arm with a closed form: the answer within the limits
// nearest q, into q; false (q untouched) if there is none.
static bool ik__closed_arm_start(const ik_closed_form *cf, const ik_target *target, ik_real *q)
{
    ik_closed_solution best;
    ik_closed_info info;
    ik_xform pose = ik_xform_make(target->rot, target->pos);
    if (cf->kind == IK_CLOSED_FORM_SRS)
        return ik__srs_arm_start(cf, pose, q);
    if (ik_closed_form_solve(cf, pose, q, NULL, &best, 1, &info) != IK_OK ||
        info.status != IK_STATUS_CONVERGED)
        return false;
    memcpy(q, best.q, (size_t)cf->joint_count * sizeof *q);
    return true;
}

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif // IK_IMPLEMENTATION

/*
   LICENSE
       MIT License. Copyright (c) 2026 the ik.h authors.

       Permission is hereby granted, free of charge, to any person obtaining a copy of this
       software and associated documentation files (the "Software"), to deal in the Software
       without restriction, including without limitation the rights to use, copy, modify, merge,
       publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
       to whom the Software is furnished to do so, subject to the following conditions:

       The above copyright notice and this permission notice shall be included in all copies or
       substantial portions of the Software.

       THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
       INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
       PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
       FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
       OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
       DEALINGS IN THE SOFTWARE.
*/
