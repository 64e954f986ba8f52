if (__pv_in < {{middle}}) {
{{low}}} else {
{{high}}}
