/* Two private (IK_STATIC) copies of ik.h in one program: this file and static_b.c each compile
   the whole implementation with static linkage; the link must succeed with no clash. */
#define IK_STATIC
#define IK_IMPLEMENTATION
#include "../ik.h"
#include <stdio.h>

double static_b_angle(int *calls);

int main(void)
{
    ik_quat q = ik_quat_from_axis_angle(ik_vec3_make(0, 0, 1), IK_R(0.5));
    int calls = 0;
    double a = (double)ik_quat_to_axis_angle(q, NULL), b = static_b_angle(&calls);
    // both copies answer, and static_b.c's copy went through its own libm replacements
    int ok = fabs(a - 0.5) < 1e-6 && fabs(b - 0.25) < 1e-6 && calls > 0;
    printf("static copies: %s\n%d passed, %d failed\n", ok ? "ok" : "MISMATCH", ok, !ok);
    return ok ? 0 : 1;
}
