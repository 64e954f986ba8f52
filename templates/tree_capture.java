int __pv_n = {{begin.unstable}};
if ({{class.rt}}.tree({{site}})) __pv_n = {{class.rt}}.enter({{site}});
final boolean __pv_tree = __pv_n >= 0;
Throwable __pv_e = null;
if (__pv_tree) {
final Object[] __pv_fs = new Object[] { {{fields_read}} };
final int[] __pv_cp = new int[__pv_n];
final int[] __pv_ck = new int[__pv_n];
final Object[] __pv_cr = new Object[__pv_n];
final Throwable[] __pv_ce = new Throwable[__pv_n];
final Object[][] __pv_co = new Object[__pv_n][];
final Object[][] __pv_cf = new Object[__pv_n][];
for (int __pv_j = 0; __pv_j < __pv_n; __pv_j++) {
final int __pv_p = {{class.rt}}.patchAt({{site}}, __pv_j);
final int[] __pv_k2 = new int[1];
final Object[] __pv_o2 = new Object[{{outs}}];
java.util.Arrays.fill(__pv_o2, __pv_o2);
{{prefill}}Object __pv_r2 = null;
Throwable __pv_e2 = null;
try {
switch (__pv_p) {
{{capture_cases}}default: throw new IllegalStateException("patchval: patch " + __pv_p + " is not in the tree at site {{site}}");
}
} catch (Throwable __pv_t) {
__pv_e2 = __pv_t;
__pv_k2[0] = {{jump.thrown}};
}
__pv_cf[__pv_j] = new Object[] { {{fields_read}} };
{{fields_restore}}__pv_cp[__pv_j] = __pv_p;
__pv_ck[__pv_j] = __pv_k2[0];
__pv_cr[__pv_j] = __pv_r2;
__pv_ce[__pv_j] = __pv_e2;
__pv_co[__pv_j] = __pv_o2;
{{class.rt}}.report({{site}}, __pv_p, {{class.rt}}.key(__pv_k2[0], __pv_r2, {{result_primitive}}, __pv_e2, __pv_o2, "{{local_kinds}}", __pv_cf[__pv_j], "{{field_kinds}}", __pv_p));
}
final int __pv_d = {{class.rt}}.decide({{site}});
for (int __pv_j = 0; __pv_j < __pv_n; __pv_j++) {
if (__pv_cp[__pv_j] != __pv_d) continue;
__pv_k[0] = __pv_ck[__pv_j];
__pv_o = __pv_co[__pv_j];
__pv_e = __pv_ce[__pv_j];
{{result_replay}}{{fields_replay}}}
}
