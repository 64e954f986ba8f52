__pv_j: {
for (boolean __pv_again0 = false; ; __pv_again0 = true) {
if (__pv_again0) { __pv_c = {{jump.continue}}; break __pv_j; }
if (false) break;
if (true) {
{{statement}}
}
__pv_c = {{jump.normal}};
{{normal_out}}break __pv_j;
}
__pv_c = {{jump.break}};
{{break_out}}}
