notice
