long file_size(const char *path, char *first, unsigned long cap);
