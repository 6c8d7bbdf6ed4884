notice([1].group_by)
