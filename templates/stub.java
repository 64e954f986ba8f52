{ // patchval: stub choosing among {{count}} patches at site {{site}}
final int[] __pv_k = new int[1];
final Object[] __pv_o = new Object[{{outs}}];
{{result_decl}}try {
switch (patchval.agent.Rt.choose({{site}})) {
{{cases}}default: throw new IllegalStateException("patchval: no patch selected at site {{site}}");
}
} finally {
{{write_back_assigned}}}
{{write_back_unassigned}}{{control}}{{terminal}}}
