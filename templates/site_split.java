if (__pv_s{{k}} < {{middle}}) { {{low}} } else { {{high}} }
