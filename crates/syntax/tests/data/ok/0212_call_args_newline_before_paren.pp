notice
('x')
