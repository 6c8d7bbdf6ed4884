if '' { notice('empty string is truthy') } else { notice('empty string is falsy') }
if 0 { notice('zero is truthy') } else { notice('zero is falsy') }
if undef { notice('undef is truthy') } else { notice('undef is falsy') }
if [] { notice('empty array is truthy') } else { notice('empty array is falsy') }
