include mrtestsshd::strict
