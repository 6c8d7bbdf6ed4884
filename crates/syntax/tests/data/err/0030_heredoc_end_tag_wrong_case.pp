$a = @(END)
text
end
