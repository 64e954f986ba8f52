{ int __pv_s{{k}} = {{class.rt}}.choose({{site}}); if ({{none}}) {{original}} else {{patches}}
