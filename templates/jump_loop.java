{{label}}for (boolean __pv_again{{level}} = false; ; __pv_again{{level}} = true) {
if (__pv_again{{level}}) { __pv_c = {{continue_code}}; break {{label_name}}; }
{{inner}}
break {{label_name}};
}
if (__pv_c == {{jump.none}}) __pv_c = {{break_code}};
