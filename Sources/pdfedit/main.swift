print("pdfedit")
