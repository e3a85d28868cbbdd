"""A classic Thiercelieux table: nights and days until a camp wins, with its operator."""
