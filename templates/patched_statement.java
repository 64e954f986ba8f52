if (true) {
{{statement}}
}
__pv_c = 0;
