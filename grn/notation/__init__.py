"""Reading and writing GRN text and its JSON form: the fast reader, the Lark reader, the writer, spans, the grammar cache, the lexer."""
