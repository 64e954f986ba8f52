{ // patchval: stub choosing among {{count}} patches at site {{site}}
final int[] __pv_k = new int[1];
Object[] __pv_o = new Object[{{outs}}];
java.util.Arrays.fill(__pv_o, __pv_o);
{{result_decl}}{{inline_decl}}{{tree}}try {
{{tree_replay}}switch ({{class.rt}}.choose({{site}})) {
{{cases}}default: throw new IllegalStateException("patchval: no patch selected at site {{site}}");
}
} catch (Throwable __pv_x) {
throw {{class.rt}}.rethrow({{class.rt}}.framed(__pv_x, "{{method}}"));
} finally {
{{write_back_assigned}}}
{{write_back_unassigned}}{{control}}{{after}}}
