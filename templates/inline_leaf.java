if (__pv_in == {{index}}) {
{{statement}}
} else throw new IllegalStateException("patchval: patch {{index}} is not inline at site {{site}}");
