    // patchval: isolation unit of patch {{index}}
    {{modifiers}}{{type_params}} {{return_type}} {{woven.unit_prefix}}{{index}}({{params}}final int[] __pv_k, final Object[] __pv_o) {{throws}} {
        __pv_k[0] = {{jump.return}};
{{unassigned_locals}}        try {
            int __pv_c = {{jump.none}};
{{body}}
            __pv_k[0] = __pv_c;
        } finally {
{{assigned_out}}        }
{{trailing_return}}    }
