    // patchval: isolation unit of patch {{index}}
    {{modifiers}}{{type_params}} {{return_type}} __pv_p{{index}}({{params}}final int[] __pv_k, final Object[] __pv_o) {{throws}} {
        __pv_k[0] = 3;
{{unassigned_locals}}        try {
            int __pv_c = -1;
{{body}}
            __pv_k[0] = __pv_c;
        } finally {
{{assigned_out}}        }
{{trailing_return}}    }
