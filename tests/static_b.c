/* The second IK_STATIC copy (see static_a.c). */
#define IK_STATIC
#define IK_IMPLEMENTATION
#include "../ik.h"

double static_b_angle(void);
double static_b_angle(void)
{
    return (double)ik_quat_to_axis_angle(ik_quat_from_axis_angle(ik_vec3_make(1, 0, 0), IK_R(0.25)),
                                         NULL);
}
