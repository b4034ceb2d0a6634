/* The second IK_STATIC copy (see static_a.c). This copy also replaces the libm calls with its
   own functions, as IK_SQRT ... IK_FABS allow, and counts that they are used. */
#include <math.h>
static int static_b_calls = 0;
#ifdef IK_USE_FLOAT
#define B_REAL float
#else
#define B_REAL double
#endif
static B_REAL b_sqrt(B_REAL x)
{
    static_b_calls++;
    return (B_REAL)sqrt((double)x);
}
static B_REAL b_sin(B_REAL x)
{
    static_b_calls++;
    return (B_REAL)sin((double)x);
}
static B_REAL b_cos(B_REAL x)
{
    static_b_calls++;
    return (B_REAL)cos((double)x);
}
static B_REAL b_atan2(B_REAL y, B_REAL x)
{
    static_b_calls++;
    return (B_REAL)atan2((double)y, (double)x);
}
static B_REAL b_fabs(B_REAL x)
{
    static_b_calls++;
    return x < 0 ? -x : x;
}
#define IK_SQRT(x)     b_sqrt(x)
#define IK_SIN(x)      b_sin(x)
#define IK_COS(x)      b_cos(x)
#define IK_ATAN2(y, x) b_atan2(y, x)
#define IK_FABS(x)     b_fabs(x)
#define IK_STATIC
#define IK_IMPLEMENTATION
#include "../ik.h"

double static_b_angle(int *calls);
double static_b_angle(int *calls)
{
    double a = (double)ik_quat_to_axis_angle(
        ik_quat_from_axis_angle(ik_vec3_make(1, 0, 0), IK_R(0.25)), NULL);
    *calls = static_b_calls;
    return a;
}
