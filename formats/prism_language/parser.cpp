// placeholder: being written (issue 20)
