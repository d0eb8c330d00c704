mod a {}
